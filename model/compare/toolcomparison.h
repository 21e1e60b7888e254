// SPDX-License-Identifier: Apache-2.0
#pragma once
// Two result files of one tool compared in that tool's own terms, shared by `kix compare` and the window:
//  - nvbench (family nvbench_cold), as nvbench_compare.py: states paired by benchmark, device and axis values;
//    %diff = (cmp - ref) / ref of the cold GPU mean; "same" when |%diff| <= the smaller of the two relative
//    standard deviations, else "faster" (cmp < ref) or "slower"; "unknown" when neither state records a noise.
//  - Google Benchmark (family gbench), as tools/compare.py: instances paired by name; the time and CPU change
//    (new - old) / |old| of the mean over repetitions, and the two-sided Mann-Whitney U p-value of the
//    repetitions' real and CPU times when both sides have at least two (mannWhitneyU of model/statistics.h,
//    scipy's default method as compare.py calls it).

#include "model/run.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>
#include <optional>
#include <vector>

namespace kix {

struct FamilyPair
{
    RunPtr reference;
    RunPtr candidate;
    QString name; // "copy · T=I32 · Elements{io}=1048576 · NVIDIA H100 80GB HBM3", "BM_copy/8/64"
    // nvbench
    double referenceTime = std::numeric_limits<double>::quiet_NaN(); // ns, the headline
    double candidateTime = std::numeric_limits<double>::quiet_NaN();
    double referenceNoise = std::numeric_limits<double>::quiet_NaN(); // relative stdev
    double candidateNoise = std::numeric_limits<double>::quiet_NaN();
    double diff = std::numeric_limits<double>::quiet_NaN(); // ns, cmp - ref
    double fracDiff = std::numeric_limits<double>::quiet_NaN(); // (cmp - ref) / ref
    QString status; // nvbench: faster, slower, same, unknown
    // Google Benchmark
    double timeChange = std::numeric_limits<double>::quiet_NaN(); // (new - old) / |old| of the mean real time
    double cpuChange = std::numeric_limits<double>::quiet_NaN();
    double referenceCpu = std::numeric_limits<double>::quiet_NaN(); // ns
    double candidateCpu = std::numeric_limits<double>::quiet_NaN();
    double timePValue = std::numeric_limits<double>::quiet_NaN(); // NaN when a side has fewer than 2 repetitions
    double cpuPValue = std::numeric_limits<double>::quiet_NaN();
    int referenceRepetitions = 0;
    int candidateRepetitions = 0;
    QStringList warnings; // comparability warnings (pairs match by name, so these are rare)
};

struct ToolComparison
{
    QString family; // nvbench_cold or gbench
    QString referenceFile;
    QString candidateFile;
    double alpha = 0.05;
    QVector<FamilyPair> pairs;
    QStringList notes; // what was left out and why
};

// When every run comes from exactly two files and all are of one family that has its own comparison (nvbench_cold
// or gbench), compares the reference file's runs with the other's. The reference is the file whose name says so
// (referenceFileIndex), else the first (in the order the runs are given: the command line's, the opening order).
std::optional<ToolComparison> compareFamilyFiles(const RunList& runs, double alpha = 0.05);
// Which of two files given in this order is the reference: the second (1) when only its base name has a word "ref",
// "reference", "base" or "baseline" ("nvbench_ref.json", "gbench-baseline.json"), else the first (0).
int referenceFileIndex(const QString& first, const QString& second);
// The provider of the reference file's runs (compareFamilyFiles' choice) when the runs are such two files; else "".
// The window's speed-up takes it as its default baseline rather than the alphabetically first provider.
QString toolReferenceProvider(const RunList& runs);
ToolComparison compareNvbench(const RunList& reference, const RunList& candidate);
ToolComparison compareGbench(const RunList& reference, const RunList& candidate, double alpha = 0.05);

// nvbench_compare.py's status of a candidate time against a reference time (any unit) given their relative standard
// deviations (NaN when absent): "same", "faster", "slower", or "unknown" when neither has a noise. Shared with the
// general comparison (decideVerdict), so that the window's speed-up verdicts of nvbench pairs are nvbench's.
QString nvbenchStatus(double referenceTime, double candidateTime, double referenceNoise, double candidateNoise);
// The relative standard deviation an nvbench run carries (measurement latency_noise); NaN when none.
double relativeNoise(const Run& run);

} // namespace kix
