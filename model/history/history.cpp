// SPDX-License-Identifier: Apache-2.0
#include "model/history/history.h"

#include "model/chartdata/quantiledata.h"

#include <QDate>
#include <QHash>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace kix {

SeriesKey SeriesKey::of(const Run& run)
{
    SeriesKey key;
    key.kernel = run.kernel;
    key.pass = run.pass;
    key.provider = run.provider;
    key.gpu = run.gpuSlug.isEmpty() ? run.gpuProduct.toLower() : run.gpuSlug;
    key.workload = run.workloadSlug;
    key.metric = run.metricName();
    key.protocolFamily = run.protocolFamily;
    key.strict = run.links().comparisonKey.toString();
    return key;
}

QString SeriesKey::id() const
{
    return QStringList { kernel, pass, provider, gpu, workload, metric, protocolFamily, strict }.join(
        QLatin1Char('\x1f'));
}

QString changeKindName(ChangeKind kind)
{
    switch (kind) {
    case ChangeKind::Regression:
        return QStringLiteral("regression");
    case ChangeKind::Improvement:
        return QStringLiteral("improvement");
    case ChangeKind::Outlier:
        break;
    }
    return QStringLiteral("outlier");
}

double HistoryChange::magnitude() const
{
    return change.ratio > 0 ? std::abs(std::log(change.ratio)) : 0;
}

int History::count(ChangeKind kind) const
{
    return int(
        std::count_if(changes.begin(), changes.end(), [kind](const HistoryChange& c) { return c.kind == kind; }));
}

QString historyLabel(const Run& run)
{
    static const char* const preferred[]
        = { "liger_version", "version", "release", "commit", "git_commit", "git_sha", "sha", "revision" };
    for (const char* key : preferred) {
        for (const KeyValue& label : run.labels) {
            if (label.key == QLatin1String(key) && !label.value.isEmpty())
                return label.value;
        }
    }
    for (const KeyValue& label : run.labels) {
        if ((label.key.contains(QLatin1String("version"), Qt::CaseInsensitive)
                || label.key.contains(QLatin1String("commit"), Qt::CaseInsensitive))
            && !label.value.isEmpty())
            return label.value;
    }
    return {};
}

bool resolveSince(const QString& text, const RunList& runs, QDateTime* since, QString* error)
{
    const QString t = text.trimmed();
    QDateTime at = QDateTime::fromString(t, Qt::ISODateWithMs);
    if (!at.isValid()) {
        const QDate date = QDate::fromString(t, Qt::ISODate);
        if (date.isValid())
            at = date.startOfDay(Qt::UTC);
    }
    if (at.isValid()) {
        if (at.timeSpec() == Qt::LocalTime)
            at.setTimeSpec(Qt::UTC); // a time without a zone is UTC, like observedAt
        *since = at;
        return true;
    }
    QDateTime earliest;
    for (const RunPtr& run : runs) {
        if (run->observedAt.isValid() && historyLabel(*run) == t && (!earliest.isValid() || run->observedAt < earliest))
            earliest = run->observedAt;
    }
    if (!earliest.isValid()) {
        *error = QStringLiteral("--since \"%1\" is neither a date (YYYY-MM-DD) nor the label of a loaded run").arg(t);
        return false;
    }
    *since = earliest;
    return true;
}

namespace {

// A point and its time as a number: the order of pointLess (time, label, externalId) without a QDateTime
// comparison per step of the sort (two valid times compare as their instants do).
struct TimedPoint
{
    qint64 ms;
    int index;
};

void sortPoints(QVector<HistoryPoint>& points)
{
    std::vector<TimedPoint> timed;
    timed.reserve(size_t(points.size()));
    for (int i = 0; i < points.size(); ++i)
        timed.push_back({ points[i].run->observedAt.toMSecsSinceEpoch(), i });
    std::sort(timed.begin(), timed.end(), [&points](const TimedPoint& x, const TimedPoint& y) {
        if (x.ms != y.ms)
            return x.ms < y.ms;
        const HistoryPoint& a = points[x.index];
        const HistoryPoint& b = points[y.index];
        if (a.label != b.label)
            return a.label < b.label;
        return a.run->externalId < b.run->externalId;
    });
    QVector<HistoryPoint> sorted;
    sorted.reserve(points.size());
    for (const TimedPoint& t : timed)
        sorted.append(std::move(points[t.index]));
    points = std::move(sorted);
}

// The series of a run by the addresses of the texts its key is made of: runs share interned strings, so most
// runs find their series without building and hashing the key's text (SeriesKey::id). Two addresses hold the
// same text only while the runs are alive: the table lives for one build.
struct KeyTexts
{
    std::array<const QChar*, 7> data {};
    std::array<qsizetype, 7> size {};
    bool latency = false;

    static KeyTexts of(const Run& run)
    {
        KeyTexts k;
        const QString* texts[] = { &run.kernel, &run.pass, &run.provider, &run.gpuSlug, &run.gpuProduct,
            &run.workloadSlug, &run.protocolFamily };
        for (size_t i = 0; i < 7; ++i) {
            k.data[i] = texts[i]->constData();
            k.size[i] = texts[i]->size();
        }
        k.latency = run.isLatency();
        return k;
    }
    bool operator==(const KeyTexts& o) const { return data == o.data && size == o.size && latency == o.latency; }
};

size_t qHash(const KeyTexts& k, size_t seed = 0)
{
    size_t h = seed ^ (k.latency ? 0x9e3779b9u : 0u);
    for (size_t i = 0; i < 7; ++i)
        h = qHashMulti(h, quintptr(k.data[i]), k.size[i]);
    return h;
}

QString seriesTitle(const Run& run)
{
    QString title = run.kernel + QStringLiteral(" · ") + run.pass + QStringLiteral(" · ") + run.provider
        + QStringLiteral(" · ") + shortGpuName(run.gpuDisplayName()) + QStringLiteral(" · ") + run.workloadSlug;
    if (!run.isLatency())
        title += QStringLiteral(" · memory");
    return title;
}

// The placeable runs with a median, grouped by series (in first-seen order, `ids` their key ids); false when the
// build was superseded.
bool groupHistorySeries(const RunList& runs, History& history, std::vector<HistorySeries>& series,
    std::vector<QString>& ids, const CancelToken& cancel)
{
    QHash<QString, int> index; // key id -> series
    QHash<KeyTexts, int> byTexts; // the same series as `index`, found by the key's addresses
    for (qsizetype r = 0; r < runs.size(); ++r) {
        if (cancel.cancelledEvery(r))
            return false; // superseded: dropped by the caller
        const RunPtr& run = runs[r];
        if (!run->observedAt.isValid()) {
            history.unplaceable.append(run);
            continue;
        }
        if (!(run->median > 0) || !std::isfinite(run->median)) {
            ++history.skippedRuns;
            continue;
        }
        const KeyTexts texts = KeyTexts::of(*run);
        auto known = byTexts.constFind(texts);
        if (known == byTexts.constEnd()) {
            const SeriesKey key = SeriesKey::of(*run);
            const QString id = key.id();
            auto it = index.constFind(id);
            if (it == index.constEnd()) {
                it = index.insert(id, int(series.size()));
                ids.push_back(id);
                HistorySeries s;
                s.key = key;
                s.title = seriesTitle(*run);
                s.unit = run->unit;
                series.push_back(std::move(s));
            }
            known = byTexts.insert(texts, *it);
        }
        series[size_t(*known)].points.append({ run, historyLabel(*run), false });
    }
    return true;
}

// The series moved into the history in key order.
void appendHistorySeriesInKeyOrder(
    History& history, std::vector<HistorySeries>& series, const std::vector<QString>& ids)
{
    std::vector<int> order(series.size()); // series in key order
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = int(i);
    std::sort(order.begin(), order.end(), [&ids](int a, int b) { return ids[size_t(a)] < ids[size_t(b)]; });
    history.series.reserve(qsizetype(series.size()));
    for (int i : order)
        history.series.append(std::move(series[size_t(i)]));
}

// Flags the (sorted) points of a series that share their observedAt with a neighbour, counting them.
void flagSameTimePoints(History& history, HistorySeries& hs)
{
    for (int i = 1; i < hs.points.size(); ++i) {
        if (hs.points[i].run->observedAt == hs.points[i - 1].run->observedAt) {
            history.sameTimeRuns += hs.points[i - 1].sameTime ? 1 : 2;
            hs.points[i - 1].sameTime = true;
            hs.points[i].sameTime = true;
        }
    }
}

// The level changes of series s (those after options.since) added to the history's changes.
void addHistorySeriesChanges(History& history, int s, const HistoryOptions& options)
{
    const HistorySeries& hs = history.series[s];
    std::vector<LevelPoint> levels;
    levels.reserve(size_t(hs.points.size()));
    for (const HistoryPoint& p : std::as_const(hs.points))
        levels.push_back({ p.run->median, p.run->p20, p.run->p80, &p.run->samples });
    for (const LevelChange& lc : detectChanges(levels, options.detection)) {
        HistoryChange c;
        c.series = s;
        c.change = lc;
        c.before = hs.points[lc.beforeIndex].run;
        c.after = hs.points[lc.index].run;
        if (options.since.isValid() && c.after->observedAt < options.since)
            continue;
        // Lower is better for latency and for memory.
        c.kind = lc.kind == LevelChange::Kind::Outlier ? ChangeKind::Outlier
            : lc.ratio > 1                             ? ChangeKind::Regression
                                                       : ChangeKind::Improvement;
        history.changes.append(c);
    }
}

// The changes by magnitude, and each series' changes (indices into them) in the order of its points.
void orderHistoryChanges(History& history)
{
    std::stable_sort(history.changes.begin(), history.changes.end(),
        [](const HistoryChange& a, const HistoryChange& b) { return a.magnitude() > b.magnitude(); });
    for (int i = 0; i < history.changes.size(); ++i)
        history.series[history.changes[i].series].changes.append(i);
    for (HistorySeries& hs : history.series) {
        std::sort(hs.changes.begin(), hs.changes.end(),
            [&history](int a, int b) { return history.changes[a].change.index < history.changes[b].change.index; });
    }
}

// The runs left out or flagged, and the series too short to judge.
void addHistoryNotes(History& history)
{
    if (!history.unplaceable.isEmpty())
        history.notes << QStringLiteral("%1 run(s) without a usable observedAt cannot be placed in time: listed as "
                                        "unplaceable")
                             .arg(history.unplaceable.size());
    if (history.sameTimeRuns > 0)
        history.notes << QStringLiteral("%1 run(s) share their series and observedAt with another: all kept, flagged")
                             .arg(history.sameTimeRuns);
    if (history.skippedRuns > 0)
        history.notes << QStringLiteral("%1 run(s) without a median left out").arg(history.skippedRuns);
    int single = 0;
    for (const HistorySeries& hs : std::as_const(history.series))
        single += hs.points.size() < 2 ? 1 : 0;
    if (single > 0)
        history.notes << QStringLiteral("%1 of %2 series have a single run: no history to judge")
                             .arg(single)
                             .arg(history.series.size());
}

} // namespace

History buildHistory(const RunList& runs, const HistoryOptions& options, const CancelToken& cancel)
{
    History history;
    std::vector<HistorySeries> series;
    std::vector<QString> ids;
    if (!groupHistorySeries(runs, history, series, ids, cancel))
        return history; // superseded: dropped by the caller
    appendHistorySeriesInKeyOrder(history, series, ids);

    for (int s = 0; s < history.series.size(); ++s) {
        HistorySeries& hs = history.series[s];
        if (cancel.cancelled())
            return history;
        sortPoints(hs.points);
        flagSameTimePoints(history, hs);
        addHistorySeriesChanges(history, s, options);
    }
    orderHistoryChanges(history);
    addHistoryNotes(history);
    return history;
}

} // namespace kix
