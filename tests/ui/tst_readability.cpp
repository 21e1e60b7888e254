// SPDX-License-Identifier: Apache-2.0
// Readable at 1280×720 and up (issue 20, point 5), on the real window: after Reset Layout the chart keeps at least
// half of the height at every size from 1024×640; short category labels are drawn whole (never "…"); the
// Benchmark form wraps inside its panel instead of clipping "full", Cancel and "…".
#include "model/filter/runtablemodel.h"
#include "ui/charts/quantilechart.h"
#include "ui/charts/rankchart.h"
#include "ui/charts/speedupchart.h"
#include "ui/runtableview.h"

#include "tests/ui/windowtestsupport.h"

#include "tests/support/testmain.h"

#include <QAbstractButton>
#include <QBarCategoryAxis>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QScrollArea>
#include <QTextDocument>

using namespace kix;
using namespace kixtest;

class TestReadability : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(m_settings); }
    void chartKeepsHalfTheHeight_data();
    void chartKeepsHalfTheHeight();
    void shortLabelsAreWhole_data();
    void shortLabelsAreWhole();
    void benchmarkFormWraps_data();
    void benchmarkFormWraps();
    void ligerFirstViewLabelsAreWhole_data();
    void ligerFirstViewLabelsAreWhole();
    void manyCategoryLabelsAreWhole_data();
    void manyCategoryLabelsAreWhole();
    void ligerFusedMoeLabelsAreWhole_data();
    void ligerFusedMoeLabelsAreWhole();
    void speedupLabelsAreWhole_data();
    void speedupLabelsAreWhole();
    void ligerSpeedupLabelsAreWhole_data();
    void ligerSpeedupLabelsAreWhole();
    void ligerRankTextsAreWhole_data();
    void ligerRankTextsAreWhole();

private:
    QTemporaryDir m_settings;
};

namespace {

// A Liger-style CSV of one kernel swept along two parameters (T: 9 values, E: 5) for two providers, two passes and
// two metrics: 2 x 2 x 14 = 56 speed runs (112 runs in all) in 28 categories (pass x workload), more than a chart at
// 1280x720 has room for with "E=128 T=32768 sweep_dimT" labels, as in the real fused_moe x H100 scope.
QString writeTwoSweepCsv(const QTemporaryDir& dir)
{
    const QString path = dir.filePath(QStringLiteral("two-sweeps.csv"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return QString();
    QByteArray csv = "kernel_name,kernel_provider,kernel_operation_mode,metric_name,metric_unit,x_name,x_label,x_value,"
                     "y_value_50,y_value_20,y_value_80,extra_benchmark_config_str,gpu_name,timestamp,liger_version\n";
    int row = 0;
    for (const char* provider : { "liger", "huggingface" })
        for (const char* pass : { "forward", "backward" })
            for (const char* metric : { "speed", "memory" }) {
                const auto line = [&](const char* dim, const char* label, int value, const QByteArray& config) {
                    const double y = 1.0 + 0.01 * ++row;
                    csv += QByteArray("sweep,") + provider + ',' + pass + ',' + metric + ','
                        + (QByteArray(metric) == "speed" ? "ms" : "MB") + ',' + dim + ',' + label + ','
                        + QByteArray::number(value) + ',' + QByteArray::number(y) + ',' + QByteArray::number(y * 0.99)
                        + ',' + QByteArray::number(y * 1.01) + ",\"" + config
                        + "\",NVIDIA H100 80GB HBM3,2026-04-02 23:57:32,0.7.0\n";
                };
                for (int t = 128; t <= 32768; t *= 2)
                    line("T", "num_tokens", t,
                        R"({""sweep_dim"": ""T"", ""T"": null, ""E"": 128, ""H"": 2048, ""K"": 8})");
                for (int e = 8; e <= 128; e *= 2)
                    line("E", "num_experts", e,
                        R"({""sweep_dim"": ""E"", ""T"": 2048, ""E"": null, ""H"": 2048, ""K"": 8})");
            }
    file.write(csv);
    return path;
}

// Settles the chart, then lets its layout finish: a chart fits its labels when its plot area changes, which a slow
// machine (a sanitizer build under load) may deliver after the build itself. Returns false only if the chart never
// settles; whether the texts came out whole is for the caller to check.
bool settleLayout(ChartPanel* charts)
{
    if (!settleChart(charts))
        return false;
    static_cast<void>(QTest::qWaitFor([&] { return elided(sceneTexts(charts->chartView())).isEmpty(); }, 5000));
    return settleChart(charts);
}

// The x labels of the chart shown, and the scope label beside the tabs: none elided or clipped.
void checkLabelsWhole(ChartPanel* charts, int categories)
{
    // Settle first, then take the chart: a rebuild that fires during the wait replaces (and frees) the chart shown
    // before it; a pointer taken before the wait would dangle (a segfault on a loaded machine).
    QVERIFY(settleLayout(charts));
    auto* chart = dynamic_cast<QuantileChart*>(charts->chart());
    QVERIFY(chart);
    const auto axes = chart->axes(Qt::Horizontal);
    QVERIFY(!axes.isEmpty());
    auto* x = qobject_cast<QBarCategoryAxis*>(axes.front());
    QVERIFY(x);
    if (categories >= 0)
        QCOMPARE(x->count(), categories);
    else
        QVERIFY2(x->count() >= 8, qPrintable(QString::number(x->count())));
    const QStringList texts = sceneTexts(charts->chartView());
    QVERIFY2(elided(texts).isEmpty(), qPrintable(elided(texts).join(QStringLiteral(" | "))));
    // Every category label is drawn (upright or turned), none hidden
    int drawn = 0;
    for (const QString& label : x->categories()) {
        QTextDocument doc;
        doc.setHtml(label);
        drawn += texts.contains(doc.toPlainText()) ? 1 : 0;
    }
    QVERIFY2(drawn == x->count(), qPrintable(QStringLiteral("%1 of %2 labels drawn").arg(drawn).arg(x->count())));
    // labels shrunk to fit stay legible
    QVERIFY2(x->labelsFont().pointSizeF() >= 6, qPrintable(QString::number(x->labelsFont().pointSizeF())));
    auto* scope = charts->findChild<QLabel*>(QStringLiteral("chartScope"));
    QVERIFY(scope);
    QVERIFY(scope->isVisible());
    QVERIFY2(scope->text().contains(QString::number(charts->runs().size())), qPrintable(scope->text()));
    const int needed = scope->fontMetrics().horizontalAdvance(scope->text());
    QVERIFY2(needed <= scope->contentsRect().width() || scope->wordWrap(),
        qPrintable(QStringLiteral("scope \"%1\" needs %2 px, has %3")
                       .arg(scope->text())
                       .arg(needed)
                       .arg(scope->contentsRect().width())));
    if (scope->wordWrap())
        QVERIFY2(scope->heightForWidth(scope->contentsRect().width()) <= scope->height(),
            qPrintable(QStringLiteral("scope \"%1\" wrapped is taller than its %2 px")
                           .arg(scope->text())
                           .arg(scope->height())));
}

// The speed-up chart shown: its title, axis titles, legend and workload labels none elided, and every workload
// label drawn whole (Qt elides a label taller than its row, or wider than the axis).
void checkSpeedupLabelsWhole(ChartPanel* charts)
{
    QVERIFY(settleLayout(charts)); // before taking the chart: a later rebuild frees the one shown
    auto* chart = dynamic_cast<SpeedupChart*>(charts->chart());
    QVERIFY(chart);
    const auto axes = chart->axes(Qt::Vertical);
    QVERIFY(!axes.isEmpty());
    auto* y = qobject_cast<QBarCategoryAxis*>(axes.front());
    QVERIFY(y);
    QVERIFY2(y->count() >= 3, qPrintable(QString::number(y->count())));
    const QStringList texts = sceneTexts(charts->chartView());
    QVERIFY2(elided(texts).isEmpty(), qPrintable(elided(texts).join(QStringLiteral(" | "))));
    int drawn = 0;
    for (const QString& label : y->categories()) {
        QTextDocument doc;
        doc.setHtml(label);
        drawn += texts.contains(doc.toPlainText()) ? 1 : 0;
    }
    QVERIFY2(drawn == y->count(), qPrintable(QStringLiteral("%1 of %2 labels drawn").arg(drawn).arg(y->count())));
    QVERIFY2(y->labelsFont().pointSizeF() >= 6, qPrintable(QString::number(y->labelsFont().pointSizeF())));
}

// The workloads the speed-up chart shown draws (its rows); -1 when no speed-up chart is shown.
int speedupRows(ChartPanel* charts)
{
    if (!settleChart(charts))
        return -1;
    auto* chart = dynamic_cast<SpeedupChart*>(charts->chart());
    const auto axes = chart ? chart->axes(Qt::Vertical) : QList<QAbstractAxis*>();
    auto* y = axes.isEmpty() ? nullptr : qobject_cast<QBarCategoryAxis*>(axes.front());
    return y ? int(y->count()) : -1;
}

} // namespace

void TestReadability::chartKeepsHalfTheHeight_data()
{
    addSizes(true);
}

void TestReadability::chartKeepsHalfTheHeight()
{
    QFETCH(QSize, size);
    std::unique_ptr<MainWindow> w(speedupWindow(size));
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(waitForCharts(*w));
    for (int round = 0; round < 2; ++round) { // as opened, then after View > Reset Layout
        const int central = w->centralWidget()->height();
        ChartPanel* charts = w->chartPanel();
        const double fraction = double(charts->height()) / central;
        QVERIFY2(fraction >= 0.5, qPrintable(QStringLiteral("chart %1 of %2 px").arg(charts->height()).arg(central)));
        QVERIFY2(charts->chartView()->height() >= w->runTable()->height(),
            qPrintable(QStringLiteral("plot view %1 px, table %2 px")
                           .arg(charts->chartView()->height())
                           .arg(w->runTable()->height())));
        w->resetLayout();
        QTest::qWait(50);
    }
}

void TestReadability::shortLabelsAreWhole_data()
{
    addSizes(true);
}

void TestReadability::shortLabelsAreWhole()
{
    QFETCH(QSize, size);
    std::unique_ptr<MainWindow> w(speedupWindow(size));
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(waitForCharts(*w));
    ChartPanel* charts = w->chartPanel();
    QVERIFY(settleChart(charts)); // before taking the chart: a later rebuild frees the one shown
    auto* speedup = dynamic_cast<SpeedupChart*>(charts->chart());
    QVERIFY(speedup);
    QCOMPARE(speedup->categories().size(), 7);
    const QStringList texts = sceneTexts(charts->chartView());
    for (const QString& category : speedup->categories())
        QVERIFY2(texts.contains(category), qPrintable(category + QStringLiteral(" not drawn whole")));
    // Nothing on the chart is elided, down to 1024x640: the title and the axis titles wrap.
    QVERIFY2(elided(texts).isEmpty(), qPrintable(elided(texts).join(QStringLiteral(" | "))));
    // The quantile chart of the same runs: its workload labels whole too.
    charts->setKind(ChartKind::Quantiles);
    QVERIFY(dynamic_cast<QuantileChart*>(charts->chart()));
    QTest::qWait(50);
    const QStringList boxes = sceneTexts(charts->chartView());
    QVERIFY2(elided(boxes).isEmpty(), qPrintable(elided(boxes).join(QStringLiteral(" | "))));
}

void TestReadability::benchmarkFormWraps_data()
{
    addSizes(true);
}

void TestReadability::benchmarkFormWraps()
{
    QFETCH(QSize, size);
    std::unique_ptr<MainWindow> w(speedupWindow(size));
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    auto* bench = w->findChild<QDockWidget*>(QStringLiteral("benchmarkPanel"));
    QVERIFY(bench);
    bench->raise();
    QTRY_VERIFY(bench->widget()->isVisible());
    QTest::qWait(50);
    // Every control the form shows lies whole inside the panel's width: none past its right edge (the panel
    // scrolls vertically, so below the fold is fine).
    int checked = 0;

    for (QAbstractButton* button : bench->widget()->findChildren<QAbstractButton*>()) {
        if (!button->isVisible() || button->text().isEmpty())
            continue;
        const QRect r(button->mapTo(bench, QPoint()), button->size());
        QVERIFY2(r.left() >= 0 && r.right() < bench->width(),
            qPrintable(QStringLiteral("%1 at %2..%3 in a panel %4 px wide")
                           .arg(button->text())
                           .arg(r.left())
                           .arg(r.right())
                           .arg(bench->width())));
        ++checked;
    }
    QVERIFY2(checked >= 8, qPrintable(QString::number(checked))); // passes, dtypes, …, Run, Cancel
}

void TestReadability::ligerFirstViewLabelsAreWhole_data()
{
    addSizes(false);
}

void TestReadability::ligerFirstViewLabelsAreWhole()
{
    QFETCH(QSize, size);
    const QString shared = qEnvironmentVariable("KIX_SHARED_DIR");
    const QString path = shared + QStringLiteral("/data/liger/all_benchmark_data.csv");
    if (shared.isEmpty() || !QFile::exists(path))
        QSKIP("the shared Liger CSV is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    MainWindow w;
    w.resize(size);
    w.show();
    w.openPaths({ path });
    QTRY_VERIFY_WITH_TIMEOUT(w.session()->model()->rowCount() > 2000, 20000);
    QVERIFY(waitForCharts(w));
    w.searchBox()->setText(QStringLiteral("groupnorm backward gpu:b200")); // short labels: channels
    QVERIFY(waitForCharts(w));
    for (ChartKind kind : { ChartKind::Quantiles, ChartKind::Speedup }) {
        w.chartPanel()->setKind(kind);
        QTest::qWait(50);
        const QStringList texts = sceneTexts(w.chartPanel()->chartView());
        QVERIFY(texts.contains(QStringLiteral("2048")));
        QVERIFY2(elided(texts).isEmpty(), qPrintable(elided(texts).join(QStringLiteral(" | "))));
    }
}

void TestReadability::manyCategoryLabelsAreWhole_data()
{
    addSizes(true);
}

void TestReadability::manyCategoryLabelsAreWhole()
{
    QFETCH(QSize, size);
    QTemporaryDir dir;
    const QString path = writeTwoSweepCsv(dir);
    QVERIFY(!path.isEmpty());
    MainWindow w;
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openPaths({ path });
    QTRY_COMPARE_WITH_TIMEOUT(w.session()->model()->rowCount(), 112, 10000);
    QVERIFY(waitForCharts(w));
    w.chartPanel()->setKind(ChartKind::Quantiles);
    QVERIFY(waitForCharts(w));
    // 2 passes x 14 workloads, or as many as the plot's width has room for (the rest are noted)
    checkLabelsWhole(w.chartPanel(), -1);
}

void TestReadability::ligerFusedMoeLabelsAreWhole_data()
{
    addSizes(false);
}

void TestReadability::ligerFusedMoeLabelsAreWhole()
{
    QFETCH(QSize, size);
    const QString shared = qEnvironmentVariable("KIX_SHARED_DIR");
    const QString path = shared + QStringLiteral("/data/liger/all_benchmark_data.csv");
    if (shared.isEmpty() || !QFile::exists(path))
        QSKIP("the shared Liger CSV is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    MainWindow w;
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openPaths({ path });
    QTRY_VERIFY_WITH_TIMEOUT(w.session()->model()->rowCount() > 2000, 20000);
    QVERIFY(waitForCharts(w));
    w.searchBox()->setText(QStringLiteral("kernel:fused_moe gpu:h100"));
    QTRY_COMPARE_WITH_TIMEOUT(w.session()->proxy()->rowCount(), 168, 20000);
    QVERIFY(waitForCharts(w));
    QCOMPARE(w.chartPanel()->runs().size(), 168);
    w.chartPanel()->setKind(ChartKind::Quantiles); // the first view of this scope; set in case that changes
    QVERIFY(waitForCharts(w));
    checkLabelsWhole(w.chartPanel(), -1); // 3 passes x 14 workloads, up to the chart's limit of 40
}

void TestReadability::speedupLabelsAreWhole_data()
{
    addSizes(true);
}

void TestReadability::speedupLabelsAreWhole()
{
    QFETCH(QSize, size);
    QTemporaryDir dir;
    const QString path = writeTwoSweepCsv(dir);
    QVERIFY(!path.isEmpty());
    MainWindow w;
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openPaths({ path });
    QTRY_COMPARE_WITH_TIMEOUT(w.session()->model()->rowCount(), 112, 10000);
    QVERIFY(waitForCharts(w));
    w.chartPanel()->setKind(ChartKind::Speedup);
    QVERIFY(waitForCharts(w));
    checkSpeedupLabelsWhole(w.chartPanel());
}

void TestReadability::ligerSpeedupLabelsAreWhole_data()
{
    addSizes(false);
}

void TestReadability::ligerSpeedupLabelsAreWhole()
{
    QFETCH(QSize, size);
    const QString shared = qEnvironmentVariable("KIX_SHARED_DIR");
    const QString path = shared + QStringLiteral("/data/liger/all_benchmark_data.csv");
    if (shared.isEmpty() || !QFile::exists(path))
        QSKIP("the shared Liger CSV is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    MainWindow w;
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openPaths({ path });
    QTRY_VERIFY_WITH_TIMEOUT(w.session()->model()->rowCount() > 2000, 20000);
    QVERIFY(waitForCharts(w));
    // Every run first: more workloads than the chart has rows for, so how many it draws depends on its height, which
    // shrinks by the pairs' table once the speed-up chart shows (the kind shown before had no table).
    for (const char* filter : { "", "kernel:group_norm", "kernel:fused_moe gpu:h100" }) {
        // each scope comes to the speed-up from a chart without the pairs' table
        if (w.chartPanel()->kind() == ChartKind::Speedup)
            w.chartPanel()->setKind(ChartKind::Quantiles);
        QVERIFY(waitForCharts(w));
        w.searchBox()->setText(QString::fromLatin1(filter));
        QTest::qWait(300);
        QVERIFY(waitForCharts(w));
        w.chartPanel()->setKind(ChartKind::Speedup);
        QVERIFY(waitForCharts(w));
        checkSpeedupLabelsWhole(w.chartPanel());
        if (QTest::currentTestFailed())
            QFAIL(filter);
    }
    // Every run again, the window resized to the other size and back: the rows follow the chart's height (more
    // rows where it grows, fewer where it shrinks), their labels stay whole.
    w.searchBox()->setText(QString());
    QTest::qWait(300);
    QVERIFY(waitForCharts(w));
    checkSpeedupLabelsWhole(w.chartPanel());
    const int shown = speedupRows(w.chartPanel());
    const QSize other = size == QSize(1280, 720) ? QSize(1600, 1000) : QSize(1280, 720);
    for (const QSize& next : { other, size }) {
        w.resize(next);
        QVERIFY(waitForCharts(w));
        checkSpeedupLabelsWhole(w.chartPanel());
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("resized to %1x%2").arg(next.width()).arg(next.height())));
        if (next == other) // a rebuild for the new height: the rows the chart had would have too much or too little
            QVERIFY2(speedupRows(w.chartPanel()) != shown, qPrintable(QString::number(shown)));
    }
    QCOMPARE(speedupRows(w.chartPanel()), shown); // back at the first size: as many rows as before
}

void TestReadability::ligerRankTextsAreWhole_data()
{
    addSizes(true);
}

void TestReadability::ligerRankTextsAreWhole()
{
    QFETCH(QSize, size);
    const QString shared = qEnvironmentVariable("KIX_SHARED_DIR");
    const QString path = shared + QStringLiteral("/data/liger/all_benchmark_data.csv");
    if (shared.isEmpty() || !QFile::exists(path))
        QSKIP("the shared Liger CSV is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    MainWindow w;
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openPaths({ path });
    QTRY_VERIFY_WITH_TIMEOUT(w.session()->model()->rowCount() > 2000, 20000);
    QVERIFY(waitForCharts(w));
    for (const char* filter : { "", "kernel:group_norm" }) {
        w.searchBox()->setText(QString::fromLatin1(filter));
        QTest::qWait(300);
        QVERIFY(waitForCharts(w));
        w.chartPanel()->setKind(ChartKind::Rank);
        QVERIFY(waitForCharts(w));
        QVERIFY(settleLayout(w.chartPanel())); // laid out at the size it keeps, its titles wrapped to it
        QVERIFY(dynamic_cast<RankChart*>(w.chartPanel()->chart()));
        const QStringList texts = sceneTexts(w.chartPanel()->chartView());
        QVERIFY2(elided(texts).isEmpty(),
            qPrintable(QString::fromLatin1(filter) + QStringLiteral(": ") + elided(texts).join(QStringLiteral(" | "))));
    }
}

KIX_TEST_MAIN(TestReadability)
#include "tst_readability.moc"
