// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/compare/rank.h"
#include "model/run.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>

namespace kix {

// A workload someone wants numbers for: an operation, axis values, a dtype and a GPU, each optional but the
// operation. `kix resolve` and the window's "My workload" box build one.
struct ResolveRequest
{
    QString operation; // the kernel name, the operation's title or one of its aliases, any case
    QVector<KeyValue> axes; // in the order given
    QString dtype; // "bf16", "float32", ... (spellings of one dtype match: resolveDtypeName)
    QString gpu; // a part of the GPU's product name or slug, any case: "B200", "h100"

    // "channels=3000" -> {channels, 3000}; false and `error` when there is no '=' or an empty key or value.
    static bool parseAxis(const QString& text, KeyValue* out, QString* error);
};

// One field in which a measured case differs from the request.
struct ResolveMismatch
{
    QString field; // an axis name, "dtype", "gpu", "workload"
    QString requested;
    QString observed;
    QString text() const; // "channels: 3000 → 2048"
};

// How a measured case answers the request. Only Exact answers it; every other kind is nearby evidence.
enum class ResolveKind {
    Exact, // no mismatch: the request was measured
    Below, // the nearest measured value below the request on `axis`
    Above, // the nearest measured value above it
    OtherValue, // a text axis: another measured value
    OtherContext, // every requested axis matches, the dtype or GPU does not
    Suite, // a workload suite whose cases hold the requested axes: one aggregate over several cases
};
QString resolveKindName(ResolveKind kind); // "exact", "below", "above", "other value", "other dtype/GPU", "suite"

// A measured case: one cohort of comparable runs (Rank's, model/compare/rank.h), ranked as that cohort.
struct ResolveCase
{
    ResolveKind kind = ResolveKind::Exact;
    QString axis; // Below, Above, OtherValue: the axis the case differs on
    double ratio = std::numeric_limits<double>::quiet_NaN(); // Below/Above: observed / requested on `axis`
    RankCohort cohort; // its implementations best first: entries.front() is the best
    QVector<ResolveMismatch> mismatches; // every field that differs from the request (none for Exact)
    QVector<KeyValue> unconstrained; // the values of the fields the request left open that vary among the cases
    QString workload; // "batch128-channels2048-hidden512-fp32", "suite of 3 cases"

    const RankEntry& best() const { return cohort.entries.front(); }
    RunList runs() const; // every ranked run of the case
    QString mismatchText() const; // "channels: 3000 → 2048; gpu: H100 → NVIDIA B200", or "" for Exact
    QString unconstrainedText() const; // "pass=forward, metric=latency"
};

struct Resolution
{
    ResolveRequest request;
    // How the operation was found: "kernel name \"group_norm\"", "operation title \"Causal depthwise conv1d\"",
    // "alias \"causal_conv1d\"". Empty when nothing matched: then `suggestions` lists the nearest names.
    QStringList matchedBy;
    QStringList suggestions;
    int runCount = 0; // runs of the operation
    int caseCount = 0; // its measured cases (cohorts with a ranked implementation)
    // Fields the runs of the operation vary in that the request did not give: "pass (backward, forward, full)".
    QStringList unconstrained;
    QStringList unknownAxes; // requested axes no case of the operation has, with the axes it has
    QVector<ResolveCase> cases; // exact cases, else the near ones (nearest first), then suites
    QStringList notes;

    bool exact() const { return !cases.isEmpty() && cases.front().kind == ResolveKind::Exact; }
    bool found() const { return !cases.isEmpty(); }
};

// Answers the request from the measured runs, as the format's home matches a workload: the cases with no
// mismatch are the answer (ranked as their cohort); else, for each requested axis, the measured cases nearest below
// and above it among those that differ from the request in the fewest other fields, each with every field in which
// it differs. A near case is never called exact. Failed runs are not measured cases.
Resolution resolveWorkload(const RunList& runs, const ResolveRequest& request);

// The rules, in words, for --help, the reports and the window.
QString resolveRuleText();

// "bfloat16" and "bf16" name one dtype: the short name ("bf16", "fp32", "fp16", "fp64", "fp8_e4m3", ...), the
// text in lower case when it is not a known spelling.
QString resolveDtypeName(const QString& dtype);

} // namespace kix
