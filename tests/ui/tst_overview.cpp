// SPDX-License-Identifier: Apache-2.0
// The first view (issue 20, point 2), on the real window: a scope of many kernels or GPUs opens on the overview
// (kernels × GPUs with run counts), one kernel on a chart; a click on a cell or a header puts its clause in the filter
// box and the table shows exactly those runs; every label is whole at 1280×720 and 1600×1000, with hundreds of rows.
#include "model/chartdata/overviewdata.h"
#include "model/filter/runtablemodel.h"
#include "ui/models/overviewmodel.h"
#include "ui/panels/overviewtable.h"

#include "tests/model/runfactory.h"
#include "tests/ui/windowtestsupport.h"

#include "tests/support/testmain.h"

#include <QClipboard>
#include <QFile>
#include <QHeaderView>
#include <QStackedWidget>
#include <QStyle>

using namespace kix;
using namespace kixtest;

namespace {

RunPtr run(
    const QString& kernel, const QString& provider, const QString& gpu, double channels = 1024, bool failed = false)
{
    auto r = makeRun(provider, gpu, channels, 1000 + channels);
    r->kernel = kernel;
    r->externalId.replace(QStringLiteral("group_norm"), kernel);
    if (failed)
        r->status = QStringLiteral("runtime_error");
    r->finalize();
    return r;
}

const QString b200 = QStringLiteral("NVIDIA B200");
const QString h100 = QStringLiteral("NVIDIA H100 80GB HBM3");
const QString mi300 = QStringLiteral("AMD Instinct MI300X");

// cross_entropy: liger ×3 and torch ×2 on H100 (one liger run failed), liger ×2 on B200; rms_norm: triton ×2 on
// B200; swiglu: liger ×1 on MI300X.
RunList manyKernels()
{
    const QString ce = QStringLiteral("cross_entropy");
    const QString liger = QStringLiteral("liger");
    return { run(ce, liger, h100, 1024), run(ce, liger, h100, 2048), run(ce, liger, h100, 4096, true),
        run(ce, QStringLiteral("torch"), h100, 1024), run(ce, QStringLiteral("torch"), h100, 2048),
        run(ce, liger, b200, 1024), run(ce, liger, b200, 2048),
        run(QStringLiteral("rms_norm"), QStringLiteral("triton"), b200, 1024),
        run(QStringLiteral("rms_norm"), QStringLiteral("triton"), b200, 2048),
        run(QStringLiteral("swiglu"), liger, mi300, 1024) };
}

std::unique_ptr<MainWindow> window(const RunList& runs, const QSize& size = QSize(1600, 1000))
{
    auto w = std::make_unique<MainWindow>();
    w->resize(size);
    w->show();
    w->addRuns(runs);
    return w;
}

bool waitForKind(MainWindow& w, ChartKind kind)
{
    return QTest::qWaitFor([&] { return waitForCharts(w) && w.chartPanel()->kind() == kind; }, 5000);
}

QRect cellRect(OverviewTable* table, int row, int column)
{
    return table->visualRect(table->model()->index(row, column));
}

// Every header label of the table drawn whole: each line of it fits its section less the style's margins.
QStringList elidedLabels(OverviewTable* table)
{
    QStringList out;
    const int margin = table->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, table);
    QFont boldFont = table->horizontalHeader()->font();
    boldFont.setBold(true); // the totals are bold; the others no wider
    const QFontMetrics metrics(boldFont);
    QAbstractItemModel* model = table->model();
    const int labelWidth = table->verticalHeader()->width() - 2 * margin;
    QHeaderView* rows = table->verticalHeader();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QString label = model->headerData(row, Qt::Vertical).toString();
        const QStringList lines = label.split(QLatin1Char('\n'));
        for (const QString& line : lines) {
            if (metrics.elidedText(line, Qt::ElideRight, labelWidth) != line)
                out << line;
        }
        if (rows->sectionSize(row) < int(lines.size()) * metrics.lineSpacing())
            out << QStringLiteral("%1 (%2 lines in %3 px)").arg(label).arg(lines.size()).arg(rows->sectionSize(row));
    }
    for (int column = 0; column < model->columnCount(); ++column) {
        const QString label = model->headerData(column, Qt::Horizontal).toString();
        const QStringList lines = label.split(QLatin1Char('\n'));
        for (const QString& line : lines) {
            if (metrics.elidedText(line, Qt::ElideRight, table->columnWidth(column) - 2 * margin) != line)
                out << line;
        }
        if (table->horizontalHeader()->height() < int(lines.size()) * metrics.lineSpacing())
            out << QStringLiteral("%1 (%2 lines in %3 px)")
                       .arg(label)
                       .arg(lines.size())
                       .arg(table->horizontalHeader()->height());
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString text = model->index(row, column).data().toString();
            if (metrics.horizontalAdvance(text) > table->columnWidth(column) - 4)
                out << text;
        }
    }
    return out;
}

} // namespace

class TestOverview : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(m_settings); }
    void modelShowsTheCounts();
    void opensOnTheOverviewForManyKernels();
    void opensOnTheChartForOneKernel();
    void leaderboardOpensOnRank();
    void searchForACohortOpensOnRank();
    void searchForScoresOpensOnRank();
    void clickOnACellFiltersToItsRuns();
    void clickOnHeadersFiltersToKernelOrGpu();
    void aChosenKindSticks();
    void labelsAreWhole_data();
    void labelsAreWhole();
    void ligerOpensOnTheOverview();

private:
    QTemporaryDir m_settings;
};

void TestOverview::modelShowsTheCounts()
{
    OverviewModel model;
    model.setOverview(buildOverview(manyKernels()));
    // Rows: the totals, then cross_entropy (7), rms_norm (2), swiglu (1); columns: the totals, H100 (5), B200 (4),
    // MI300X (1).
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.columnCount(), 4);
    QCOMPARE(model.headerData(1, Qt::Vertical).toString(), QStringLiteral("cross_entropy"));
    QCOMPARE(model.headerData(0, Qt::Vertical).toString(), QStringLiteral("All kernels"));
    QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("NVIDIA H100\n80GB HBM3"));
    QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("NVIDIA B200"));
    QCOMPARE(model.index(1, 1).data().toString(), QStringLiteral("5 · 2 impl., 1 failed"));
    QCOMPARE(model.index(1, 2).data().toString(), QStringLiteral("2 · 1 impl."));
    QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("7 · 2 impl., 1 failed"));
    QCOMPARE(model.index(0, 2).data().toString(), QStringLiteral("4 · 2 impl.")); // B200: liger and triton
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("10 · 3 impl., 1 failed"));
    QCOMPARE(model.index(2, 1).data().toString(), QString()); // no rms_norm run on H100
    QCOMPARE(model.index(2, 2).data(OverviewModel::ClauseRole).toString(), QStringLiteral("kernel=rms_norm gpu=B200"));
    QCOMPARE(model.headerData(3, Qt::Horizontal, OverviewModel::ClauseRole).toString(),
        QStringLiteral("gpu=amd-instinct-mi300x"));
    QCOMPARE(model.index(0, 0).data(OverviewModel::ClauseRole).toString(), QString());
    QCOMPARE(model.toTsv().section(QLatin1Char('\n'), 2, 2), QStringLiteral("cross_entropy\t7\t5\t2\t0"));
}

void TestOverview::opensOnTheOverviewForManyKernels()
{
    auto w = window(manyKernels());
    QVERIFY(waitForKind(*w, ChartKind::Overview));
    ChartPanel* charts = w->chartPanel();
    QVERIFY(charts->isKindAutomatic());
    QVERIFY(charts->overviewTable()->isVisible());
    QVERIFY(!charts->chartView()->isVisible());
    QCOMPARE(charts->overviewTable()->model()->rowCount(), 4);
    QVERIFY2(charts->bannerText().contains(QStringLiteral("3 kernels × 3 GPUs, 10 runs (1 failed)")),
        qPrintable(charts->bannerText()));
    // Copy puts the grid on the clipboard as text.
    charts->copyChart();
    QVERIFY(QGuiApplication::clipboard()->text().startsWith(QStringLiteral("kernel\tAll GPUs\tNVIDIA H100 80GB HBM3")));
}

void TestOverview::opensOnTheChartForOneKernel()
{
    auto w = window(kixtest::allRuns()); // group_norm on three GPUs
    QVERIFY(waitForKind(*w, ChartKind::Quantiles));
    QVERIFY(w->chartPanel()->chartView()->isVisible());
    QVERIFY(!w->chartPanel()->overviewTable()->isVisible());
    QVERIFY(w->chartPanel()->chart()->series().size() > 0);
}

void TestOverview::leaderboardOpensOnRank()
{
    RunList runs;
    for (int i = 0; i < 4; ++i) {
        auto r = makeRun(QStringLiteral("submission-%1").arg(i), b200, 0, 1e-5 * (i + 1), -1);
        r->kernel = QStringLiteral("nvfp4-group-gemm");
        r->metric = Run::Metric::Other;
        r->headlineMetric = QStringLiteral("score");
        r->unit = QStringLiteral("s");
        r->finalize();
        runs << r;
    }
    auto w = window(runs);
    QVERIFY(waitForKind(*w, ChartKind::Rank)); // scores have no quantiles: they rank
}

void TestOverview::searchForACohortOpensOnRank()
{
    // group_norm on H100: liger, torch and triton at channels=1024, liger and torch at 2048.
    RunList runs;
    for (const QString& provider : { QStringLiteral("liger"), QStringLiteral("torch"), QStringLiteral("triton") })
        runs << makeRun(provider, h100, 1024, 1000 + provider.size());
    for (const QString& provider : { QStringLiteral("liger"), QStringLiteral("torch") })
        runs << makeRun(provider, h100, 2048, 2000 + provider.size());
    auto w = window(runs);
    QVERIFY(waitForKind(*w, ChartKind::Quantiles)); // two workloads: quantiles side by side
    // One workload on one GPU, three implementations: a cohort, which Rank answers ("who is fastest here?").
    w->searchBox()->setText(QStringLiteral("channels=1024"));
    QVERIFY(waitForKind(*w, ChartKind::Rank));
    QVERIFY(w->chartPanel()->isKindAutomatic());
    // Two implementations of one workload are not "many": back to quantiles.
    w->searchBox()->setText(QStringLiteral("channels=2048"));
    QVERIFY(waitForKind(*w, ChartKind::Quantiles));
    w->searchBox()->clear();
    QVERIFY(waitForKind(*w, ChartKind::Quantiles));
}

void TestOverview::searchForScoresOpensOnRank()
{
    // A leaderboard's scores beside a reference latency of the same kernel, and group_norm's latencies.
    RunList runs;
    for (int i = 0; i < 3; ++i) {
        auto r = makeRun(QStringLiteral("submission-%1").arg(i), b200, 0, 1e-5 * (i + 1), -1);
        r->kernel = QStringLiteral("nvfp4-group-gemm");
        r->metric = Run::Metric::Other;
        r->headlineMetric = QStringLiteral("score");
        r->unit = QStringLiteral("s");
        r->source = QStringLiteral("gpumode-kernelbot");
        r->finalize();
        runs << r;
    }
    auto reference = makeRun(QStringLiteral("reference"), b200, 0, 5e4);
    reference->kernel = QStringLiteral("nvfp4-group-gemm");
    reference->finalize();
    runs << reference;
    for (int c : { 1024, 2048, 4096, 8192 })
        runs << makeRun(QStringLiteral("liger"), b200, c, 1000 + c);
    auto w = window(runs);
    QVERIFY(waitForKind(*w, ChartKind::Quantiles)); // mostly latencies
    w->searchBox()->setText(QStringLiteral("nvfp4"));
    QCOMPARE(w->session()->proxy()->rowCount(), 4);
    QVERIFY(waitForKind(*w, ChartKind::Rank)); // mostly scores, which have no quantiles: they rank
    w->searchBox()->setText(QStringLiteral("group_norm"));
    QVERIFY(waitForKind(*w, ChartKind::Quantiles));
}

void TestOverview::clickOnACellFiltersToItsRuns()
{
    auto w = window(manyKernels());
    QVERIFY(waitForKind(*w, ChartKind::Overview));
    OverviewTable* table = w->chartPanel()->overviewTable();
    // cross_entropy (row 1) on H100 (column 1): 5 runs
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellRect(table, 1, 1).center());
    QCOMPARE(w->searchBox()->text(), QStringLiteral("kernel=cross_entropy gpu=nvidia-h100-80gb-hbm3"));
    QVERIFY(waitForKind(*w, ChartKind::Quantiles)); // one kernel on one GPU: charted
    const RunList shown = w->session()->proxy()->visibleRuns();
    QCOMPARE(shown.size(), 5);
    for (const RunPtr& r : shown) {
        QCOMPARE(r->kernel, QStringLiteral("cross_entropy"));
        QCOMPARE(r->gpuProduct, h100);
    }
    // The filter is the user's to edit: clearing it brings the overview back.
    w->searchBox()->clear();
    QVERIFY(waitForKind(*w, ChartKind::Overview));
    QCOMPARE(w->session()->proxy()->rowCount(), 10);
    // A clause the user typed stays beside the one a click adds; a second click replaces the kernel and GPU.
    w->searchBox()->setText(QStringLiteral("channels=1024"));
    QVERIFY(waitForKind(*w, ChartKind::Overview)); // still three kernels
    QCOMPARE(table->model()->index(0, 0).data().toString(), QStringLiteral("5 · 3 impl."));
    const int b200Column = 1 + int(table->overviewModel()->overview().gpus.indexOf(b200));
    const int ceRow = 1 + int(table->overviewModel()->overview().kernels.indexOf(QStringLiteral("cross_entropy")));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellRect(table, ceRow, b200Column).center());
    QCOMPARE(w->searchBox()->text(), QStringLiteral("channels=1024 kernel=cross_entropy gpu=B200"));
    QVERIFY(waitForCharts(*w));
    QCOMPARE(w->session()->proxy()->rowCount(), 1);
}

void TestOverview::clickOnHeadersFiltersToKernelOrGpu()
{
    auto w = window(manyKernels());
    QVERIFY(waitForKind(*w, ChartKind::Overview));
    OverviewTable* table = w->chartPanel()->overviewTable();
    QHeaderView* rows = table->verticalHeader();
    // rms_norm's row header: every GPU
    QTest::mouseClick(rows->viewport(), Qt::LeftButton, {},
        QPoint(rows->width() / 2, rows->sectionViewportPosition(2) + rows->sectionSize(2) / 2));
    QCOMPARE(w->searchBox()->text(), QStringLiteral("kernel=rms_norm"));
    QVERIFY(waitForCharts(*w));
    QCOMPARE(w->session()->proxy()->rowCount(), 2);
    w->searchBox()->clear();
    QVERIFY(waitForKind(*w, ChartKind::Overview));
    // B200's column header: every kernel on it (cross_entropy and rms_norm)
    QHeaderView* columns = table->horizontalHeader();
    const int b200Column = 1 + int(table->overviewModel()->overview().gpus.indexOf(b200));
    QTest::mouseClick(columns->viewport(), Qt::LeftButton, {},
        QPoint(columns->sectionViewportPosition(b200Column) + columns->sectionSize(b200Column) / 2,
            columns->height() / 2));
    QCOMPARE(w->searchBox()->text(), QStringLiteral("gpu=B200"));
    QVERIFY(waitForCharts(*w));
    QCOMPARE(w->session()->proxy()->rowCount(), 4);
    for (const RunPtr& r : w->session()->proxy()->visibleRuns())
        QCOMPARE(r->gpuProduct, b200);
}

void TestOverview::aChosenKindSticks()
{
    auto w = window(manyKernels());
    QVERIFY(waitForKind(*w, ChartKind::Overview));
    w->chartPanel()->kindActions().at(int(ChartKind::Sweep))->trigger(); // Ctrl+2, as the user would
    QCOMPARE(w->chartPanel()->kind(), ChartKind::Sweep);
    QVERIFY(!w->chartPanel()->isKindAutomatic());
    w->searchBox()->setText(QStringLiteral("kernel=swiglu"));
    QVERIFY(waitForCharts(*w));
    QCOMPARE(w->chartPanel()->kind(), ChartKind::Sweep);
    w->searchBox()->clear();
    QVERIFY(waitForCharts(*w));
    QCOMPARE(w->chartPanel()->kind(), ChartKind::Sweep);
    // The overview's own shortcut is the sixth.
    QCOMPARE(w->chartPanel()->kindActions().size(), chartKindCount);
    QCOMPARE(w->chartPanel()->kindActions().at(5)->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_6));
    w->chartPanel()->kindActions().at(5)->trigger();
    QCOMPARE(w->chartPanel()->kind(), ChartKind::Overview);
    QVERIFY(w->chartPanel()->overviewTable()->isVisible());
}

void TestOverview::labelsAreWhole_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x720") << QSize(1280, 720);
    QTest::newRow("1600x1000") << QSize(1600, 1000);
}

void TestOverview::labelsAreWhole()
{
    QFETCH(QSize, size);
    // 300 kernels, the longest name far from both ends (a header's own size hint reads the first and last 100
    // sections only), on GPUs with long names.
    RunList runs;
    const QString longName = QStringLiteral("052-seqlen-finetuned-reconstructed-hyena-gating-and-output-projection");
    const QStringList gpus { h100, b200, mi300, QStringLiteral("NVIDIA GeForce RTX 4090"),
        QStringLiteral("NVIDIA A100-SXM4-80GB"), QStringLiteral("NVIDIA H100 PCIe") };
    for (int k = 0; k < 300; ++k) {
        const QString kernel = k == 150 ? longName : QStringLiteral("kernel_%1").arg(k, 3, 10, QLatin1Char('0'));
        for (int i = 0; i <= k % 3; ++i)
            runs << run(kernel, QStringLiteral("liger"), gpus[(k + i) % gpus.size()], 1024 * (i + 1));
    }
    auto w = window(runs, size);
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(waitForKind(*w, ChartKind::Overview));
    OverviewTable* table = w->chartPanel()->overviewTable();
    QTest::qWait(50);
    QCOMPARE(table->model()->rowCount(), 301);
    QCOMPARE(table->model()->columnCount(), 7);
    const QStringList elided = elidedLabels(table);
    QVERIFY2(elided.isEmpty(), qPrintable(elided.join(QStringLiteral(" | "))));
    // The long name is on two lines, each whole, and it is the name once joined; the row header stays narrow
    // enough to leave the GPU columns room at 1280×720.
    const int longRow = 1 + int(table->overviewModel()->overview().kernels.indexOf(longName));
    const QString drawn = table->model()->headerData(longRow, Qt::Vertical).toString();
    QCOMPARE(drawn.count(QLatin1Char('\n')), 1);
    QCOMPARE(QString(drawn).remove(QLatin1Char('\n')), longName);
    QVERIFY2(table->verticalHeader()->width() < table->width() / 2,
        qPrintable(QStringLiteral("%1 of %2 px").arg(table->verticalHeader()->width()).arg(table->width())));
    // The kernel names stay in view however far the GPU columns scroll.
    QVERIFY(table->verticalHeader()->isVisible());
}

void TestOverview::ligerOpensOnTheOverview()
{
    const QString shared = qEnvironmentVariable("KIX_SHARED_DIR");
    const QString path = shared + QStringLiteral("/data/liger/all_benchmark_data.csv");
    if (shared.isEmpty() || !QFile::exists(path))
        QSKIP("the shared Liger CSV is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    MainWindow w;
    w.resize(1280, 720);
    w.show();
    w.openPaths({ path });
    QTRY_VERIFY_WITH_TIMEOUT(w.session()->model()->rowCount() > 2000, 20000);
    QVERIFY(waitForKind(w, ChartKind::Overview));
    OverviewTable* table = w.chartPanel()->overviewTable();
    const OverviewData& data = table->overviewModel()->overview();
    QCOMPARE(data.total.runs, w.session()->model()->rowCount());
    QVERIFY(data.kernels.size() >= 30);
    QVERIFY(data.gpus.size() >= 5);
    QVERIFY(!data.kernelClauses.contains(QString())); // every kernel and GPU can be filtered to
    QVERIFY(!data.gpuClauses.contains(QString()));
    const QStringList elided = elidedLabels(table);
    QVERIFY2(elided.isEmpty(), qPrintable(elided.join(QStringLiteral(" | "))));
    // The commonest kernel on its commonest GPU, one click: exactly its runs, on a chart.
    const int column = 1
        + int(std::max_element(data.cells.begin(), data.cells.begin() + data.gpus.size(),
                  [](const OverviewCell& a, const OverviewCell& b) { return a.runs < b.runs; })
            - data.cells.begin());
    const int expected = data.cell(0, column - 1).runs;
    table->scrollTo(table->model()->index(1, column));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellRect(table, 1, column).center());
    QVERIFY(waitForKind(w, ChartKind::Quantiles));
    QCOMPARE(w.session()->proxy()->rowCount(), expected);
    for (const RunPtr& r : w.session()->proxy()->visibleRuns()) {
        QCOMPARE(r->kernel, data.kernels[0]);
        QCOMPARE(r->gpuDisplayName(), data.gpus[column - 1]);
    }
}

KIX_TEST_MAIN(TestOverview)
#include "tst_overview.moc"
