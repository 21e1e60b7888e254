// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/historydata.h"

#include "model/chartdata/downsample.h"
#include "model/chartdata/quantiledata.h"
#include "model/history/historyreport.h"
#include "model/workload.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace kix {

namespace {

// The ordinal key of a point on a label axis: its label, else its time.
QString ordinalKey(const HistoryPoint& p)
{
    return p.label.isEmpty() ? p.run->observedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")) : p.label;
}

// The fields a legend name is made of: kernel, pass, provider, GPU, workload, protocol family.
constexpr int fieldCount = 6;
constexpr int gpuField = 3;
constexpr int workloadField = 4;

QStringList fields(const HistorySeries& s)
{
    return { s.key.kernel, s.key.pass, s.key.provider, s.points.front().run->gpuDisplayName(), s.key.workload,
        s.key.protocolFamily };
}

// The series of the charted metric (latency when any series has it), those with the largest change first, then
// the longest; the first `maxSeries` are drawn.
void chooseSeries(const History& history, int maxSeries, HistoryData& data)
{
    // the series' own metric names: latency first, else the first series' metric (memory, score, ...)
    QString metric;
    for (const HistorySeries& s : history.series) {
        if (s.key.metric == QLatin1String("latency") || metric.isEmpty())
            metric = s.key.metric;
        if (metric == QLatin1String("latency"))
            break;
    }
    QVector<int> candidates;
    for (int i = 0; i < history.series.size(); ++i) {
        if (history.series[i].key.metric == metric)
            candidates << i;
        else
            ++data.otherMetric;
    }
    auto largest = [&history](int s) {
        double m = 0;
        for (int c : history.series[s].changes)
            m = std::max(m, history.changes[c].magnitude());
        return m;
    };
    std::stable_sort(candidates.begin(), candidates.end(), [&](int a, int b) {
        const double ma = largest(a), mb = largest(b);
        if (ma != mb)
            return ma > mb;
        return history.series[a].points.size() > history.series[b].points.size();
    });
    const int shown = std::min<int>(int(candidates.size()), std::max(1, maxSeries));
    data.candidates = int(candidates.size());
    data.drawn = candidates.mid(0, shown);
    std::sort(data.drawn.begin(), data.drawn.end());
    data.latency = data.drawn.isEmpty() || metric == QLatin1String("latency");
}

// The lines' names (only what differs among them) and the subtitle of what they share.
void nameLines(HistoryData& data)
{
    const QVector<HistorySeries>& series = data.history.series;
    QVector<bool> varies(fieldCount, false);
    QSet<QString> commonWorkload; // the workload slug's parts every line shares ("batch128", "fp32")
    const QStringList first = data.drawn.isEmpty() ? QStringList() : fields(series[data.drawn.front()]);
    for (int s : std::as_const(data.drawn)) {
        const QStringList f = fields(series[s]);
        for (int k = 0; k < fieldCount; ++k)
            varies[k] = varies[k] || f[k] != first[k];
        const QStringList parts = f[workloadField].split(QLatin1Char('-'));
        const QSet<QString> set(parts.begin(), parts.end());
        commonWorkload = s == data.drawn.front() ? set : commonWorkload.intersect(set);
    }
    // A varying workload reads as the values of the parameters that vary ("1024/9"), their names once in the
    // subtitle ("lines: hidden_size/kernel_size"): a legend of slugs would be elided.
    RunList firstRuns;
    for (int s : std::as_const(data.drawn))
        firstRuns << series[s].points.front().run;
    const ParamVariation variation = paramVariation(firstRuns);
    QStringList keys = variation.varying;
    if (variation.dtypeVaries)
        keys << QStringLiteral("dtype");
    auto workloadValues = [&keys](const Run& run) {
        QStringList values;
        for (const QString& key : keys) {
            QString value = key == QLatin1String("dtype") ? run.dtype : QString();
            for (const WorkloadParam& p : run.workload) {
                if (p.key == key)
                    value = p.value;
            }
            values << (value.isEmpty() ? QStringLiteral("–") : value);
        }
        return values.join(QLatin1Char('/'));
    };
    auto shortField = [&commonWorkload, &keys, &workloadValues](int k, const QString& value, const Run& run) {
        if (k == gpuField)
            return shortGpuName(value);
        if (k != workloadField)
            return value;
        if (!keys.isEmpty())
            return workloadValues(run);
        QStringList kept;
        for (const QString& part : value.split(QLatin1Char('-'))) {
            if (!commonWorkload.contains(part))
                kept << part;
        }
        return kept.join(QLatin1Char('-'));
    };
    for (HistoryLineData& line : data.lines) {
        const HistorySeries& s = series[line.series];
        const QStringList f = fields(s);
        QStringList name;
        for (int k = 0; k < fieldCount; ++k) {
            if (varies[k])
                name << shortField(k, f[k], *s.points.front().run);
        }
        line.name
            = name.isEmpty() ? s.key.provider + QStringLiteral(" · ") + s.key.pass : name.join(QStringLiteral(" · "));
        line.bandName = s.title + QStringLiteral(" p20–p80");
    }
    if (data.drawn.isEmpty())
        return;
    QStringList common;
    for (int k = 0; k < fieldCount; ++k) {
        if (!varies[k] && !first[k].isEmpty())
            common << (k == gpuField ? shortGpuName(first[k]) : first[k]);
        else if (k == workloadField && !commonWorkload.isEmpty()) {
            QStringList parts; // in the slug's order
            for (const QString& part : first[k].split(QLatin1Char('-'))) {
                if (commonWorkload.contains(part))
                    parts << part;
            }
            common << parts.join(QLatin1Char('-'));
        }
    }
    if (varies[workloadField] && !keys.isEmpty())
        common << QStringLiteral("lines: ") + keys.join(QLatin1Char('/'));
    if (!common.isEmpty())
        data.subtitles << common.join(QStringLiteral(" · "));
}

// Draws some of a long line's points (see HistoryLineData::source): each bucket's lowest and highest median, the
// change points and the point before each (the step stays visible), and `keep`'s point.
void capLine(HistoryLineData& line, const HistorySeries& series, const QVector<HistoryChange>& changes, int maxPoints,
    const RunPtr& keep)
{
    QVector<int> kept;
    for (int c : series.changes) {
        const int index = changes[c].change.index;
        kept << index << index - 1;
    }
    for (int k = 0; keep && k < series.points.size(); ++k) {
        if (series.points[k].run == keep)
            kept << k;
    }
    int perBucket = 1;
    const QVector<int> source = minMaxDownsample(line.median, maxPoints, kept, &perBucket);
    if (source.size() == line.x.size())
        return;
    HistoryLineData out;
    out.series = line.series;
    out.source = source;
    out.perPoint = perBucket;
    for (int k : source) {
        // the band over the bucket the point stands for
        const int start = k / perBucket * perBucket;
        const int end = std::min<int>(int(line.x.size()), start + perBucket);
        const double low = *std::min_element(line.low.begin() + start, line.low.begin() + end);
        const double high = *std::max_element(line.high.begin() + start, line.high.begin() + end);
        out.x << line.x[k];
        out.median << line.median[k];
        out.low << low;
        out.high << high;
    }
    line = std::move(out);
}

// Points, bands, marks and the axes' ranges.
void placePoints(HistoryData& data, bool logY, int maxPoints, const RunPtr& keep)
{
    const QVector<HistorySeries>& series = data.history.series;
    std::vector<double> medians;
    for (int s : std::as_const(data.drawn)) {
        for (const HistoryPoint& p : series[s].points)
            medians.push_back(p.run->median);
    }
    if (data.latency)
        data.scale = chooseTimeScale(medians);
    auto yOf = [&data](double v) { return data.latency ? data.scale.fromNs(v) : v; };

    // x: milliseconds since the epoch, or the ordinal position of the label (in order of first appearance in time).
    QHash<QString, int> ordinalIndex;
    if (data.byLabel) {
        std::vector<const HistoryPoint*> all;
        for (int s : std::as_const(data.drawn)) {
            for (const HistoryPoint& p : series[s].points)
                all.push_back(&p);
        }
        std::stable_sort(all.begin(), all.end(),
            [](const HistoryPoint* a, const HistoryPoint* b) { return a->run->observedAt < b->run->observedAt; });
        for (const HistoryPoint* p : all) {
            const QString key = ordinalKey(*p);
            if (!ordinalIndex.contains(key)) {
                ordinalIndex.insert(key, int(data.ordinal.size()));
                data.ordinal << key;
            }
        }
    }
    data.xTitle
        = data.byLabel ? QStringLiteral("version label (in order of time)") : QStringLiteral("observedAt (UTC)");
    data.yTitle = data.latency ? QStringLiteral("latency (%1)").arg(data.scale.unit) : QStringLiteral("memory (MB)");

    double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
    for (int s : std::as_const(data.drawn)) {
        HistoryLineData line;
        line.series = s;
        for (const HistoryPoint& p : series[s].points) {
            const double px = data.byLabel ? double(ordinalIndex.value(ordinalKey(p)))
                                           : double(p.run->observedAt.toMSecsSinceEpoch());
            const double lo = std::isfinite(p.run->p20) ? p.run->p20 : p.run->median;
            const double hi = std::isfinite(p.run->p80) ? p.run->p80 : p.run->median;
            line.x << px;
            line.median << yOf(p.run->median);
            line.low << yOf(lo);
            line.high << yOf(hi);
            xlo = std::min(xlo, px);
            xhi = std::max(xhi, px);
            ylo = std::min(ylo, yOf(lo));
            yhi = std::max(yhi, yOf(hi));
        }
        capLine(line, series[s], data.history.changes, maxPoints, keep);
        data.lines << line;
    }
    for (ChangeKind kind : { ChangeKind::Regression, ChangeKind::Improvement, ChangeKind::Outlier }) {
        for (int i = 0; i < data.lines.size(); ++i) {
            const HistoryLineData& line = data.lines[i];
            for (int c : series[line.series].changes) {
                const HistoryChange& change = data.history.changes[c];
                const int drawn = line.drawnPoint(change.change.index); // change points are always drawn
                if (change.kind == kind && drawn >= 0)
                    data.marks.append({ kind, i, change.change.index, line.x[drawn], line.median[drawn] });
            }
        }
    }

    data.hasRange = std::isfinite(xlo);
    if (!data.hasRange)
        return;
    if (data.byLabel) {
        data.xMin = -0.5;
        data.xMax = std::max(0.5, double(data.ordinal.size()) - 0.5);
    } else {
        const double pad = xhi > xlo ? (xhi - xlo) * 0.05 : 86400000.0;
        data.xMin = double(qint64(xlo - pad));
        data.xMax = double(qint64(xhi + pad));
    }
    data.logY = logY && ylo > 0;
    if (data.logY) {
        data.yMin = ylo / 1.25;
        data.yMax = yhi * 1.25;
    } else {
        data.yMin = 0;
        data.yMax = yhi * 1.08 + (yhi == 0);
    }
}

} // namespace

int HistoryLineData::drawnPoint(int seriesPoint) const
{
    if (source.isEmpty())
        return seriesPoint >= 0 && seriesPoint < x.size() ? seriesPoint : -1;
    const auto it = std::lower_bound(source.begin(), source.end(), seriesPoint);
    return it != source.end() && *it == seriesPoint ? int(it - source.begin()) : -1;
}

int HistoryData::cappedLines() const
{
    return int(std::count_if(lines.cbegin(), lines.cend(), [](const HistoryLineData& l) { return l.isCapped(); }));
}

int HistoryData::markCount(ChangeKind kind) const
{
    return int(
        std::count_if(marks.cbegin(), marks.cend(), [kind](const HistoryMarkData& m) { return m.kind == kind; }));
}

QString HistoryData::tooltip(int line, int point) const
{
    if (line < 0 || line >= lines.size())
        return {};
    const HistorySeries& s = history.series[lines[line].series];
    if (point < 0 || point >= s.points.size())
        return {};
    const HistoryPoint& p = s.points[point];
    const Run& run = *p.run;
    QStringList out;
    out << s.title;
    out << (p.label.isEmpty() ? QString() : p.label + QStringLiteral(" · "))
            + run.observedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
    out << QStringLiteral("median %1 · p20 %2 · p80 %3")
               .arg(formatValue(run, run.median), formatValue(run, run.p20), formatValue(run, run.p80));
    if (p.sameTime)
        out << QStringLiteral("⚠ another run of this series has the same observedAt");
    for (int c : s.changes) {
        const HistoryChange& change = history.changes[c];
        if (change.change.index == point)
            out << QStringLiteral("%1 ×%2: %3")
                       .arg(changeKindName(change.kind))
                       .arg(change.change.ratio, 0, 'f', 3)
                       .arg(change.change.evidence);
    }
    out << run.externalId;
    out << run.file + run.pointer;
    return out.join(QLatin1Char('\n'));
}

HistoryData buildHistoryData(const RunList& runs, const HistoryDataOptions& options, const CancelToken& cancel)
{
    HistoryData data;
    HistoryOptions ho;
    ho.detection.threshold = options.threshold;
    data.history = buildHistory(runs, ho, cancel);
    chooseSeries(data.history, options.maxSeries, data);

    bool anyLabel = false;
    bool allLabels = true;
    RunList drawnRuns;
    for (int s : std::as_const(data.drawn)) {
        for (const HistoryPoint& p : data.history.series[s].points) {
            anyLabel = anyLabel || !p.label.isEmpty();
            allLabels = allLabels && !p.label.isEmpty();
            drawnRuns << p.run;
        }
    }
    data.byLabel = anyLabel
        && (options.xParam == QLatin1String("label") || (options.xParam != QLatin1String("time") && allLabels));
    data.xCandidates = anyLabel ? QStringList { QStringLiteral("time"), QStringLiteral("label") }
                                : QStringList { QStringLiteral("time") };
    data.xParam = data.byLabel ? QStringLiteral("label") : QStringLiteral("time");
    data.title = QStringLiteral("History · ") + selectionTitle(drawnRuns, cancel);

    int perLine = options.maxPoints;
    if (perLine > 0 && options.maxTotalPoints > 0 && !data.drawn.isEmpty())
        perLine
            = std::min(perLine, std::max(options.minPointsPerLine, options.maxTotalPoints / int(data.drawn.size())));
    placePoints(data, options.logY, perLine, options.keep);
    nameLines(data);
    data.subtitles << QStringLiteral("median over time, p20–p80 band; changes at a %1 % threshold: %2 regression(s), "
                                     "%3 improvement(s), %4 outlier(s)")
                          .arg(options.threshold * 100, 0, 'g', 3)
                          .arg(data.markCount(ChangeKind::Regression))
                          .arg(data.markCount(ChangeKind::Improvement))
                          .arg(data.markCount(ChangeKind::Outlier));
    if (const int capped = data.cappedLines(); capped > 0) {
        int most = 1;
        for (const HistoryLineData& line : std::as_const(data.lines))
            most = std::max(most, line.perPoint);
        data.subtitles << QStringLiteral("%1 of %2 line(s) thinned: a point stands for up to %3 runs (each span's "
                                         "lowest and highest median, every change kept; the band spans their p20–p80)")
                              .arg(capped)
                              .arg(data.lines.size())
                              .arg(most);
    }

    data.notes = data.history.notes;
    if (data.candidates > data.drawn.size())
        data.notes << QStringLiteral("%1 more series not drawn: narrow the filter (the %2 with the largest changes "
                                     "are drawn)")
                          .arg(data.candidates - data.drawn.size())
                          .arg(data.drawn.size());
    if (data.otherMetric > 0)
        data.notes << QStringLiteral("%1 memory series not drawn beside latency").arg(data.otherMetric);
    const RunList& unplaceable = data.history.unplaceable;
    for (int i = 0; i < unplaceable.size() && i < 3; ++i) {
        const Run& run = *unplaceable[i];
        data.warnings << QStringLiteral("unplaceable (no usable observedAt): %1")
                             .arg(run.externalId.isEmpty() ? run.file + run.pointer : run.externalId);
    }
    if (unplaceable.size() > 3)
        data.warnings << QStringLiteral("and %1 more unplaceable runs").arg(unplaceable.size() - 3);
    return data;
}

} // namespace kix
