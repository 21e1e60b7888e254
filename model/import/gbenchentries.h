// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the Google Benchmark importer): the file's benchmark entries gathered into instances (a
// family and its arguments, with its repetitions and aggregates) and the complexity fits of their families.

#include "model/import/importresult.h"
#include "model/import/interopcommon.h"

#include <QString>

#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace kix::interop::gbench {

using detail::json;
using detail::RunParts;
using detail::Schema;

// One element of the file's "benchmarks" array, and its JSON pointer.
struct Entry
{
    const json* value;
    QString pointer;
};

// One benchmark instance (a family and its arguments, named by run_name): its repetitions and its aggregates.
struct Instance
{
    std::string runName;
    std::vector<Entry> iterations;
    std::vector<Entry> aggregates;
    long long familyIndex = -1; // family_index, when the file records it
};

// A complexity fit (Complexity(): the "BigO" and "RMS" aggregates), which describes a benchmark family: it has no
// time of its own, so it becomes measurements of the family's instances.
struct ComplexityFit
{
    std::string family; // run_name of the fit: the family without its arguments
    long long familyIndex = -1;
    QString pointer;
    std::string bigO; // "N", "NlgN", "N^2", "1", "lgN", "f(N)", ...
    double realCoefficient = std::numeric_limits<double>::quiet_NaN(); // ns
    double cpuCoefficient = std::numeric_limits<double>::quiet_NaN(); // ns
    double rms = std::numeric_limits<double>::quiet_NaN(); // normalised root mean square error, 0.01 = 1 %
    bool attached = false;
};

// The file's benchmark entries: the instances they measure and the complexity fits of their families.
struct Gathered
{
    std::vector<Instance> instances;
    std::vector<ComplexityFit> fits;
};

// Instances in file order, their repetitions and aggregates gathered by run_name; entries of one name without
// run_name (the old format, before repetition_index and run_type) are repetitions of one instance, as compare.py
// reads them. Warns once for the entries with no time and once for the aggregates with no name.
Gathered gatherInstances(const json& benchmarks, Schema& schema);

// "BM_copy/8/64" -> BM_copy, {arg0: 8, arg1: 64}; "BM_x/size:8/threads:4" -> BM_x, {size: 8, threads: 4}.
std::string splitName(const std::string& name, std::vector<std::pair<std::string, std::string>>& params);

// The complexity fit of the instance's family, as measurements and a label of its run: the fitted coefficient of
// real and CPU time (time per unit of N's complexity) and the fit's RMS error. Matched by family_index when both
// record it, else by the family name (the run_name without arguments).
void attachComplexity(
    std::vector<ComplexityFit>& fits, const Instance& instance, const std::string& family, RunParts& parts);

// A complexity fit with no measured instance of its family in the file: a warning, since nothing carries it.
void warnUnattachedFits(const std::vector<ComplexityFit>& fits, Schema& schema);

} // namespace kix::interop::gbench
