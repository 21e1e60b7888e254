// SPDX-License-Identifier: Apache-2.0
// History chart data without widgets: which series are drawn, the legend names, the points and bands in the axis'
// unit, the change marks, the axes' ranges, the notes and warnings, on runs built in memory.
#include "model/chartdata/historydata.h"

#include "tests/model/runfactory.h"

#include <QTest>

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
RunList releases(bool labels = true)
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

} // namespace

class TestHistoryData : public QObject
{
    Q_OBJECT
private slots:
    void linesNamesAndPoints();
    void marksAndRanges();
    void timeAxis();
    void seriesBeyondTheLimit();
    void empty();
};

void TestHistoryData::linesNamesAndPoints()
{
    const HistoryData data = buildHistoryData(releases());
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
    const HistoryData data = buildHistoryData(releases());
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
    const HistoryData logData = buildHistoryData(releases(), log);
    QVERIFY(logData.logY);
    QVERIFY(qAbs(logData.yMin - 0.99 / 1.25) < 1e-9);
    QVERIFY(qAbs(logData.yMax - 2.02 * 1.25) < 1e-9);

    // A higher threshold: the 30 % step no longer counts.
    HistoryDataOptions strict;
    strict.threshold = 0.4;
    QCOMPARE(buildHistoryData(releases(), strict).markCount(ChangeKind::Regression), 0);
}

void TestHistoryData::timeAxis()
{
    // Without labels the x axis is time; asking for labels cannot change that.
    HistoryDataOptions options;
    options.xParam = QStringLiteral("label");
    const HistoryData data = buildHistoryData(releases(false), options);
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
    const HistoryData byTime = buildHistoryData(releases(), options);
    QVERIFY(!byTime.byLabel);
    QCOMPARE(byTime.xParam, QStringLiteral("time"));
}

void TestHistoryData::seriesBeyondTheLimit()
{
    HistoryDataOptions options;
    options.maxSeries = 1;
    const HistoryData data = buildHistoryData(releases(), options);
    QCOMPARE(data.drawn.size(), 1);
    QCOMPARE(data.candidates, 2);
    // The series with the largest change is the one kept.
    QCOMPARE(data.history.series[data.drawn.front()].key.provider, QStringLiteral("liger"));
    QVERIFY2(data.notes.join(QLatin1Char('\n')).contains(QStringLiteral("1 of 2 series drawn")),
        qPrintable(data.notes.join(QLatin1Char('\n'))));
    // One line: its name falls back to provider · pass, and the subtitle names everything.
    QCOMPARE(data.lines.front().name, QStringLiteral("liger · backward"));
    QVERIFY(data.subtitles.front().contains(QStringLiteral("liger")));
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

QTEST_GUILESS_MAIN(TestHistoryData)
#include "tst_historydata.moc"
