// SPDX-License-Identifier: Apache-2.0
// History chart data without widgets: which series are drawn, the legend names, the points and bands in the axis'
// unit, the change marks, the axes' ranges, the notes and warnings, on runs built in memory.
#include "model/chartdata/downsample.h"
#include "model/chartdata/historydata.h"

#include "tests/model/runfactory.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <algorithm>

using namespace kix;
using kixtest::makeRun;

namespace {

const QDateTime day0(QDate(2026, 1, 5), QTime(12, 0), Qt::UTC);

// A run observed `day` days after day0 with version label "v<day+1>".
RunPtr at(const QString& provider, double median, int day, bool label = true)
{
    auto run = makeRun(provider, QStringLiteral("NVIDIA B200"), 1024, median);
    run->observedAt = day0.addDays(day);
    if (label)
        run->labels = { { QStringLiteral("version"), QStringLiteral("v%1").arg(day + 1) } };
    run->finalize();
    return run;
}

// liger steps up from 1 µs to 1.3 µs at v4; huggingface stays at 2 µs; one memory run; one run without a time.
RunList releaseRuns(bool labels = true)
{
    RunList runs;
    for (int day = 0; day < 6; ++day) {
        runs << at(QStringLiteral("liger"), day < 3 ? 1000 : 1300, day, labels);
        runs << at(QStringLiteral("huggingface"), 2000, day, labels);
    }
    auto memory = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 1024, 64);
    memory->metric = Run::Metric::Memory;
    memory->observedAt = day0;
    memory->finalize();
    runs << memory;
    auto unplaceable = makeRun(QStringLiteral("triton"), QStringLiteral("NVIDIA B200"), 1024, 900);
    unplaceable->externalId = QStringLiteral("no-time-run");
    unplaceable->finalize();
    runs << unplaceable;
    return runs;
}

int lineOf(const HistoryData& data, const QString& provider)
{
    for (int i = 0; i < data.lines.size(); ++i) {
        if (data.history.series[data.lines[i].series].key.provider == provider)
            return i;
    }
    return -1;
}

// One liger series of `count` hourly runs: about 1 µs with a little deterministic noise, a step up by 30 % at
// `step`, and one spike (3 µs) at `spike`.
RunList longSeries(int count, int step, int spike)
{
    RunList runs;
    for (int i = 0; i < count; ++i) {
        const double noise = (i * 37 % 11) - 5.0; // -5..5 ns
        const double median = i == spike ? 3000 : (i < step ? 1000 : 1300) + noise;
        auto run = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 1024, median);
        run->observedAt = day0.addSecs(3600LL * i);
        run->externalId = QStringLiteral("run-%1").arg(i);
        run->finalize();
        runs << run;
    }
    return runs;
}

} // namespace

class TestHistoryData : public QObject
{
    Q_OBJECT
private slots:
    void linesNamesAndPoints();
    void marksAndRanges();
    void timeAxis();
    void seriesBeyondTheLimit();
    void workloadNames();
    void empty();
    void downsampleKeepsEachBucketsExtremes();
    void longLineIsCappedKeepingChanges();
    void manyLongLinesShareThePointBudget();
};

void TestHistoryData::linesNamesAndPoints()
{
    const HistoryData data = buildHistoryData(releaseRuns());
    QCOMPARE(data.drawn.size(), 2);
    QCOMPARE(data.candidates, 2);
    QCOMPARE(data.otherMetric, 1);
    QVERIFY(data.latency);
    QCOMPARE(data.scale.unit, QStringLiteral("µs"));
    QCOMPARE(data.yTitle, QStringLiteral("latency (µs)"));
    QVERIFY(data.byLabel); // every point has a version label
    QCOMPARE(data.xParam, QStringLiteral("label"));
    QCOMPARE(data.xCandidates, (QStringList { QStringLiteral("time"), QStringLiteral("label") }));
    QCOMPARE(data.xTitle, QStringLiteral("version label (in order of time)"));
    QCOMPARE(data.ordinal, (QStringList { "v1", "v2", "v3", "v4", "v5", "v6" }));
    QCOMPARE(data.title, QStringLiteral("History · group_norm · backward · B200"));
    // Only the provider differs: the legend says it, the subtitle says the rest.
    QStringList names;
    for (const HistoryLineData& line : data.lines)
        names << line.name;
    names.sort();
    QCOMPARE(names, (QStringList { QStringLiteral("huggingface"), QStringLiteral("liger") }));
    QCOMPARE(data.subtitles.front(),
        QStringLiteral("group_norm · backward · B200 · batch128-channels1024-fp32 · liger_kernel_bench"));

    const int liger = lineOf(data, QStringLiteral("liger"));
    QVERIFY(liger >= 0);
    const HistoryLineData& line = data.lines[liger];
    QCOMPARE(line.bandName, data.history.series[line.series].title + QStringLiteral(" p20–p80"));
    QCOMPARE(line.x, (QVector<double> { 0, 1, 2, 3, 4, 5 }));
    const double medians[] = { 1.0, 1.0, 1.0, 1.3, 1.3, 1.3 };
    for (int i = 0; i < 6; ++i) {
        QCOMPARE(line.median[i], medians[i]);
        QVERIFY(qAbs(line.low[i] - medians[i] * 0.99) < 1e-9);
        QVERIFY(qAbs(line.high[i] - medians[i] * 1.01) < 1e-9);
    }

    QVERIFY(data.notes.contains(QStringLiteral("1 memory series not drawn beside latency")));
    QCOMPARE(data.warnings, QStringList { QStringLiteral("unplaceable (no usable observedAt): no-time-run") });
}

void TestHistoryData::marksAndRanges()
{
    const HistoryData data = buildHistoryData(releaseRuns());
    const int liger = lineOf(data, QStringLiteral("liger"));
    QCOMPARE(data.markCount(ChangeKind::Regression), 1);
    QCOMPARE(data.markCount(ChangeKind::Improvement), 0);
    QCOMPARE(data.markCount(ChangeKind::Outlier), 0);
    const HistoryMarkData& mark = data.marks.front();
    QCOMPARE(mark.kind, ChangeKind::Regression);
    QCOMPARE(mark.line, liger);
    QCOMPARE(mark.point, 3);
    QCOMPARE(mark.x, 3.0);
    QCOMPARE(mark.y, 1.3);
    QVERIFY(data.subtitles.back().contains(QStringLiteral("5 % threshold: 1 regression(s), 0 improvement(s)")));
    QVERIFY(data.tooltip(liger, 3).contains(QStringLiteral("regression ×1.300")));
    QVERIFY(data.tooltip(liger, 3).startsWith(data.history.series[data.lines[liger].series].title));
    QVERIFY(data.tooltip(liger, 3).contains(QStringLiteral("v4 · 2026-01-08 12:00:00 UTC")));
    QVERIFY(data.tooltip(liger, 99).isEmpty());

    // Label axis: half a step each side; y from 0 to the highest p80 (huggingface's 2.02 µs) plus 8 %.
    QVERIFY(data.hasRange);
    QCOMPARE(data.xMin, -0.5);
    QCOMPARE(data.xMax, 5.5);
    QCOMPARE(data.yMin, 0.0);
    QVERIFY(qAbs(data.yMax - 2.02 * 1.08) < 1e-9);
    QVERIFY(!data.logY);

    HistoryDataOptions log;
    log.logY = true;
    const HistoryData logData = buildHistoryData(releaseRuns(), log);
    QVERIFY(logData.logY);
    QVERIFY(qAbs(logData.yMin - 0.99 / 1.25) < 1e-9);
    QVERIFY(qAbs(logData.yMax - 2.02 * 1.25) < 1e-9);

    // A higher threshold: the 30 % step no longer counts.
    HistoryDataOptions strict;
    strict.threshold = 0.4;
    QCOMPARE(buildHistoryData(releaseRuns(), strict).markCount(ChangeKind::Regression), 0);
}

void TestHistoryData::timeAxis()
{
    // Without labels the x axis is time; asking for labels cannot change that.
    HistoryDataOptions options;
    options.xParam = QStringLiteral("label");
    const HistoryData data = buildHistoryData(releaseRuns(false), options);
    QVERIFY(!data.byLabel);
    QCOMPARE(data.xCandidates, QStringList { QStringLiteral("time") });
    QCOMPARE(data.xTitle, QStringLiteral("observedAt (UTC)"));
    const HistoryLineData& line = data.lines[lineOf(data, QStringLiteral("liger"))];
    QCOMPARE(line.x.front(), double(day0.toMSecsSinceEpoch()));
    QCOMPARE(line.x.back(), double(day0.addDays(5).toMSecsSinceEpoch()));
    const double span = 5 * 86400000.0;
    QCOMPARE(data.xMin, double(day0.toMSecsSinceEpoch()) - span * 0.05);
    QCOMPARE(data.xMax, double(day0.addDays(5).toMSecsSinceEpoch()) + span * 0.05);

    // With labels, "time" is still a choice.
    options.xParam = QStringLiteral("time");
    const HistoryData byTime = buildHistoryData(releaseRuns(), options);
    QVERIFY(!byTime.byLabel);
    QCOMPARE(byTime.xParam, QStringLiteral("time"));
}

void TestHistoryData::seriesBeyondTheLimit()
{
    HistoryDataOptions options;
    options.maxSeries = 1;
    const HistoryData data = buildHistoryData(releaseRuns(), options);
    QCOMPARE(data.drawn.size(), 1);
    QCOMPARE(data.candidates, 2);
    // The series with the largest change is the one kept.
    QCOMPARE(data.history.series[data.drawn.front()].key.provider, QStringLiteral("liger"));
    QVERIFY2(data.notes.join(QLatin1Char('\n')).contains(QStringLiteral("1 more series not drawn: narrow the filter")),
        qPrintable(data.notes.join(QLatin1Char('\n'))));
    // One line: its name falls back to provider · pass, and the subtitle names everything.
    QCOMPARE(data.lines.front().name, QStringLiteral("liger · backward"));
    QVERIFY(data.subtitles.front().contains(QStringLiteral("liger")));
}

void TestHistoryData::workloadNames()
{
    // Lines that differ in workload are named by the values that vary, the parameters' names once in the subtitle.
    RunList runs;
    for (int day = 0; day < 3; ++day) {
        for (double channels : { 64.0, 2048.0 }) {
            auto run = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), channels, 1000 + channels);
            run->observedAt = day0.addDays(day);
            if (channels > 100) { // and the batch differs too
                run->workload[0] = { QStringLiteral("batch"), QStringLiteral("64"), 64 };
                run->workloadSlug = QStringLiteral("batch64-channels2048-fp32");
            }
            run->externalId += QString::number(day);
            run->finalize();
            runs << run;
        }
    }
    const HistoryData data = buildHistoryData(runs);
    QCOMPARE(data.lines.size(), 2);
    QStringList names;
    for (const HistoryLineData& line : data.lines)
        names << line.name;
    names.sort();
    QCOMPARE(names, (QStringList { QStringLiteral("128/64"), QStringLiteral("64/2048") }));
    QVERIFY2(data.subtitles.front().endsWith(QStringLiteral(" · fp32 · liger_kernel_bench · lines: batch/channels")),
        qPrintable(data.subtitles.front()));
}

void TestHistoryData::empty()
{
    const HistoryData data = buildHistoryData({});
    QVERIFY(data.isEmpty());
    QVERIFY(!data.hasRange);
    QVERIFY(data.lines.isEmpty());
    QVERIFY(data.marks.isEmpty());
    QCOMPARE(data.xParam, QStringLiteral("time"));
}

void TestHistoryData::downsampleKeepsEachBucketsExtremes()
{
    QVector<double> values;
    for (int i = 0; i < 1003; ++i)
        values << double((i * 7919) % 1009); // a scramble of 0..1008
    int perBucket = 0;
    // Short enough: every point.
    QCOMPARE(minMaxDownsample(values.mid(0, 10), 10, {}, &perBucket), (QVector<int> { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 }));
    QCOMPARE(perBucket, 1);
    QCOMPARE(minMaxDownsample(values, 0, {}, &perBucket).size(), values.size()); // 0: no cap
    // 100 points: 50 buckets of 21 runs (the last one shorter), each bucket's lowest and highest kept, and the
    // indices asked for (out-of-range ones ignored), the first and the last.
    const QVector<int> kept = minMaxDownsample(values, 100, { 500, 501, -3, 5000 }, &perBucket);
    QCOMPARE(perBucket, 21);
    QVERIFY(std::is_sorted(kept.begin(), kept.end()));
    QVERIFY(std::adjacent_find(kept.begin(), kept.end()) == kept.end()); // no duplicates
    QVERIFY2(kept.size() <= 100 + 4, qPrintable(QString::number(kept.size())));
    QVERIFY(kept.size() < values.size());
    QVERIFY(kept.contains(500) && kept.contains(501) && kept.front() == 0 && kept.back() == 1002);
    for (int start = 0; start < values.size(); start += perBucket) {
        const auto begin = values.begin() + start;
        const auto end = values.begin() + std::min<int>(int(values.size()), start + perBucket);
        const int lo = int(std::min_element(begin, end) - values.begin());
        const int hi = int(std::max_element(begin, end) - values.begin());
        QVERIFY2(kept.contains(lo) && kept.contains(hi), qPrintable(QStringLiteral("bucket at %1").arg(start)));
    }
}

void TestHistoryData::longLineIsCappedKeepingChanges()
{
    const int count = 5000;
    const int step = 3217; // inside a bucket: neither its lowest nor (noise) surely its highest point
    const RunList runs = longSeries(count, step, 1234);
    HistoryDataOptions options;
    options.maxPoints = 200;
    options.keep = runs[777]; // the current run: drawn though it is no extreme
    const HistoryData data = buildHistoryData(runs, options);
    QCOMPARE(data.lines.size(), 1);
    const HistoryLineData& line = data.lines.front();
    const QVector<HistoryPoint>& points = data.history.series[line.series].points;
    QCOMPARE(points.size(), count);
    QVERIFY(line.isCapped());
    QCOMPARE(line.perPoint, 50); // 100 buckets of 50 runs
    QCOMPARE(line.source.size(), line.x.size());
    QVERIFY2(line.x.size() <= 200 + 2 * data.history.changes.size() + 3, qPrintable(QString::number(line.x.size())));
    QCOMPARE(data.cappedLines(), 1);
    // Every bucket's lowest and highest median is drawn, at its own time and value.
    for (int start = 0; start < count; start += line.perPoint) {
        int lo = start, hi = start;
        for (int i = start; i < start + line.perPoint; ++i) {
            lo = points[i].run->median < points[lo].run->median ? i : lo;
            hi = points[i].run->median > points[hi].run->median ? i : hi;
        }
        for (int i : { lo, hi }) {
            const int drawn = line.drawnPoint(i);
            QVERIFY2(drawn >= 0, qPrintable(QStringLiteral("point %1").arg(i)));
            QCOMPARE(line.seriesPoint(drawn), i);
            QCOMPARE(line.x[drawn], double(points[i].run->observedAt.toMSecsSinceEpoch()));
            QCOMPARE(line.median[drawn], data.scale.fromNs(points[i].run->median));
        }
    }
    QCOMPARE(*std::max_element(line.median.begin(), line.median.end()), data.scale.fromNs(3000)); // the spike
    // The step is flagged and its point drawn, with its mark; so is the current run.
    QVERIFY(data.markCount(ChangeKind::Regression) >= 1);
    bool stepMarked = false;
    for (const HistoryMarkData& mark : data.marks) {
        const int drawn = line.drawnPoint(mark.point);
        QVERIFY2(drawn >= 0, qPrintable(QStringLiteral("mark at %1").arg(mark.point))); // no flagged point dropped
        QCOMPARE(mark.x, line.x[drawn]);
        QCOMPARE(mark.y, line.median[drawn]);
        stepMarked = stepMarked || (mark.kind == ChangeKind::Regression && mark.point == step);
    }
    QVERIFY(stepMarked);
    QVERIFY(line.drawnPoint(777) >= 0);
    // The band over a point spans its bucket's lowest p20 and highest p80; the read-out is the run's own.
    const int drawnStep = line.drawnPoint(step);
    const int bucket = step / line.perPoint * line.perPoint;
    double highest = 0;
    for (int i = bucket; i < bucket + line.perPoint; ++i)
        highest = std::max(highest, data.scale.fromNs(points[i].run->p80));
    QCOMPARE(line.high[drawnStep], highest);
    QVERIFY(data.tooltip(0, line.seriesPoint(drawnStep)).contains(QStringLiteral("run-%1").arg(step)));
    // The chart says what a point stands for.
    QVERIFY2(data.subtitles.join(QLatin1Char('\n')).contains(QStringLiteral("a point stands for up to 50 runs")),
        qPrintable(data.subtitles.join(QLatin1Char('\n'))));

    // Uncapped, every point is drawn and the marks are the same.
    options.maxPoints = 0;
    const HistoryData all = buildHistoryData(runs, options);
    QVERIFY(!all.lines.front().isCapped());
    QCOMPARE(all.lines.front().x.size(), count);
    QCOMPARE(all.marks.size(), data.marks.size());
    QCOMPARE(all.cappedLines(), 0);
    QVERIFY(!all.subtitles.join(QLatin1Char('\n')).contains(QStringLiteral("stands for")));
}

KIX_TEST_GUILESS_MAIN(TestHistoryData)
void TestHistoryData::manyLongLinesShareThePointBudget()
{
    // 16 series (one per workload) of 2,000 hourly runs each, flat with a little noise.
    RunList runs;
    for (int series = 0; series < 16; ++series) {
        for (int i = 0; i < 2000; ++i) {
            auto run = makeRun(
                QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 64 * (series + 1), 1000 + (i * 37 % 11) - 5.0);
            run->observedAt = day0.addSecs(3600LL * i);
            run->externalId = QStringLiteral("run-%1-%2").arg(series).arg(i);
            run->finalize();
            runs << run;
        }
    }
    auto drawnPoints = [](const HistoryData& data) {
        qsizetype total = 0;
        for (const HistoryLineData& line : data.lines)
            total += line.x.size();
        return total;
    };
    HistoryDataOptions options; // 1,200 a line, 6,000 in all
    const HistoryData shared = buildHistoryData(runs, options);
    QCOMPARE(shared.lines.size(), 16);
    const qsizetype slack = 2 * shared.history.changes.size() + 3; // change points and the ends are kept
    for (const HistoryLineData& line : shared.lines) {
        QVERIFY(line.isCapped());
        QVERIFY2(line.x.size() <= 6000 / 16 + slack, qPrintable(QString::number(line.x.size())));
        QVERIFY(line.x.size() >= 6000 / 16 / 2); // each bucket's lowest and highest: about the share
    }
    QVERIFY2(drawnPoints(shared) <= 6000 + 16 * slack, qPrintable(QString::number(drawnPoints(shared))));
    // Without the budget each line gets its own 1,200.
    options.maxTotalPoints = 0;
    const HistoryData own = buildHistoryData(runs, options);
    QCOMPARE(own.lines.size(), 16);
    for (const HistoryLineData& line : own.lines)
        QVERIFY2(line.x.size() > 6000 / 16 + slack && line.x.size() <= 1200 + slack,
            qPrintable(QString::number(line.x.size())));
    // A floor per line: a budget smaller than the lines still draws minPointsPerLine of each.
    options.maxTotalPoints = 160;
    options.minPointsPerLine = 100;
    const HistoryData floor = buildHistoryData(runs, options);
    for (const HistoryLineData& line : floor.lines)
        QVERIFY2(line.x.size() >= 100 / 2 && line.x.size() <= 100 + slack, qPrintable(QString::number(line.x.size())));
    // One line keeps the whole per-line cap.
    const RunList one = runs.mid(0, 2000);
    const HistoryData single = buildHistoryData(one, HistoryDataOptions());
    QCOMPARE(single.lines.size(), 1);
    QVERIFY(single.lines.front().x.size() > 6000 / 16 + slack);
}

#include "tst_historydata.moc"
