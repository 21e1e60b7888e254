// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (resolveWorkload): the measured cases of one operation and every field in which each differs
// from the request, read by the steps that pick the exact, near, other-context and suite cases.

#include "model/compare/rank.h"
#include "model/compare/resolve.h"
#include "model/run.h"

#include <QSet>
#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>

namespace kix::resolving {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// What the matching reads of one measured case (a cohort with a ranked implementation).
struct CaseInfo
{
    int cohort = 0;
    const Run* run = nullptr; // the cohort's best run: the workload, dtype and GPU of every run of it
    bool suite = false;
    int suiteSize = 0;
    QVector<QVector<KeyValue>> suiteCases; // the axes of each case of a suite, as its document lists them
    QVector<ResolveMismatch> mismatches;
};

QString lower(const QString& s);
double numberOf(const QString& text); // NaN when the text is not a finite number
bool sameValue(const QString& requested, const QString& observedText, double observedNumber);
double distance(double requested, double observed);
const WorkloadParam* paramOf(const Run& run, const QString& key);
QVector<QVector<KeyValue>> suiteCasesOf(const Run& run, int* size);
QStringList dtypesOf(const Run& run);
bool gpuMatches(const Run& run, const QString& wanted);
QString metricText(const Run& run);
QStringList nearestNames(const QSet<QString>& names, const QString& wanted, int count);

// One case per cohort with a ranked implementation, suites marked and their cases' axes read.
QVector<CaseInfo> caseInfosOf(const Ranking& ranking);
// Every axis name the cases have, in the order first seen.
QStringList knownAxes(const QVector<CaseInfo>& infos);
ResolveMismatch suiteMismatch(const CaseInfo& info, const KeyValue& axis);
// Every field in which each case differs from the request.
void addMismatches(QVector<CaseInfo>& infos, const QVector<KeyValue>& axes, const ResolveRequest& request);

} // namespace kix::resolving
