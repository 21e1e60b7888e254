// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/history/changedetection.h"
#include "model/jobs/canceltoken.h"
#include "model/run.h"

#include <QDateTime>
#include <QStringList>
#include <QVector>

namespace kix {

// Everything that must match for two runs to be comparable over time: the provider and the format's strict
// comparison key where the run has one (operation, workload, protocol, environment, correctness, metric: a new
// protocol version or environment starts a new series), else the family-level fields: kernel, pass, GPU, workload
// (dtype included), metric and protocol family.
struct SeriesKey
{
    QString kernel;
    QString pass;
    QString provider;
    QString gpu; // the GPU slug, else the product in lower case
    QString workload; // the workload slug
    QString metric; // Run::metricName(): "latency", "memory", "score", …
    QString protocolFamily;
    QString strict; // the run's comparison key, "" when it has none

    static SeriesKey of(const Run& run);
    QString id() const; // the fields joined, for maps
    bool operator==(const SeriesKey& o) const { return id() == o.id(); }
};

struct HistoryPoint
{
    RunPtr run;
    QString label; // a version or commit label of the run, "" when it has none
    bool sameTime = false; // another run of the series has the same observedAt: both are kept
};

enum class ChangeKind { Regression, Improvement, Outlier };
QString changeKindName(ChangeKind kind); // "regression", "improvement", "outlier"

struct HistoryChange
{
    int series = -1; // index into History::series
    ChangeKind kind = ChangeKind::Regression;
    LevelChange change; // indices into the series' points
    RunPtr before; // the last run of the old level
    RunPtr after; // the first run of the new level, or the outlier
    double magnitude() const; // |log ratio|: the ranking key
};

struct HistorySeries
{
    SeriesKey key;
    QString title; // "group_norm · backward · liger · B200 · batch128-channels2048-fp32"
    QString unit; // of the medians: "ns" or "MB"
    QVector<HistoryPoint> points; // by observedAt, then label, then externalId
    QVector<int> changes; // indices into History::changes, by position in the series
};

struct HistoryOptions
{
    DetectionOptions detection;
    QDateTime since; // when valid, only changes whose new level starts at or after it are listed
};

struct History
{
    QVector<HistorySeries> series; // in key order
    QVector<HistoryChange> changes; // every change of every series, largest first
    RunList unplaceable; // runs without a usable observedAt: listed, never dropped silently
    int sameTimeRuns = 0; // runs that share their series and observedAt with another
    int skippedRuns = 0; // runs without a positive median
    QStringList notes;

    int count(ChangeKind kind) const;
};

// Groups runs into series, orders them in time and finds each series' changes. Regressions and improvements follow
// the metric's direction: lower latency is better, and lower memory too.
History buildHistory(
    const RunList& runs, const HistoryOptions& options = {}, const CancelToken& cancel = CancelToken());

// The run's version or commit label: liger_version, version, release, commit, git_commit, sha, revision, else any
// label whose key contains "version" or "commit"; "" when none.
QString historyLabel(const Run& run);

// --since: an ISO date ("2025-01-31", or with a time) or a label value (the earliest run carrying it). False and
// `error` when it is neither.
bool resolveSince(const QString& text, const RunList& runs, QDateTime* since, QString* error);

} // namespace kix
