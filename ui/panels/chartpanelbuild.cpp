// SPDX-License-Identifier: Apache-2.0
// ChartPanel: its charts built (on the GUI thread, or prepared off it for many runs) and shown, fitted to the view.
#include "ui/panels/chartpanel.h"

#include "model/jobs/pools.h"
#include "model/workload.h"
#include "ui/charts/chartfactory.h"
#include "ui/charts/charthover.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/speedupchart.h"
#include "ui/models/comparisonmodel.h"
#include "ui/panels/compareview.h"
#include "ui/panels/overviewtable.h"
#include "ui/panels/quantileviewchooser.h"
#include "ui/panels/scopelabel.h"

#include <QBarCategoryAxis>
#include <QChartView>
#include <QCoreApplication>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QThreadPool>
#include <QTimer>
#include <QToolButton>
#include <QtConcurrent>

#include <algorithm>
#include <array>

namespace kix {

namespace {

constexpr int kChartKinds = chartKindCount;

// A ranking or comparison of a million runs takes long to free: the chart threads free it.
void freeOnChartThreads(std::shared_ptr<PreparedChart> prepared)
{
    if (prepared)
        static_cast<void>(
            QtConcurrent::run(chartThreads(), [garbage = std::move(prepared)]() mutable { garbage.reset(); }));
}

} // namespace

ChartOptions ChartPanel::options() const
{
    return optionsFor(m_kind);
}

ChartOptions ChartPanel::optionsFor(ChartKind kind) const
{
    ChartOptions options;
    options.logY = m_logY;
    options.quantileView = static_cast<QuantileViewChooser*>(m_quantileViewBox)->choice();
    options.xParam = m_xParam;
    options.baseline = m_baseline;
    options.cohort = m_cohort;
    options.cohortRun = m_currentRun;
    options.rankWidened = m_rankWidened;
    options.currentRun = m_currentRun;
    options.dark = ChartStyle::isDark(palette());
    // No more categories than the plot can label whole: a speed-up row needs a line of text, a quantile column
    // two lines once its labels are turned upright. What is left out is noted above the chart.
    const QFontMetrics metrics(font());
    const int line = metrics.height();
    if (kind == ChartKind::Speedup && m_view->height() > 0) {
        // Qt elides a label less than 17 px shorter than its row; the chart shrinks its labels to 6 pt to fit
        QFont smallest = font();
        smallest.setPointSizeF(6);
        const int row = m_rowLines * QFontMetrics(smallest).height() + 17; // lines: the last speed-up's labels
        // The pairs' table shows below a speed-up chart: where it is hidden now (another kind is shown), the view
        // will have what the splitter leaves it, not its height now.
        int height = m_view->height();
        if (!m_pairs->isVisibleTo(this) && m_splitter->height() > 0) {
            const int pairs = m_pairsHeight > 0 ? m_pairsHeight : m_splitter->height() / 5;
            height = std::max(m_view->minimumHeight(), m_splitter->height() - m_splitter->handleWidth() - pairs);
        }
        options.maxGroups = std::clamp((height - 100) / row, 3, options.maxGroups);
        // Never back to as many rows as were drawn at this size and found too many (refitGroups): the rows a larger
        // count adds may bring longer labels (more lines at 6 pt) that the count below it leaves out, and the chart
        // would go from one to the other for ever.
        if (m_shrunkFrom.first == m_view->size() && m_shrunkFrom.second > 3)
            options.maxGroups = std::min(options.maxGroups, m_shrunkFrom.second - 1);
    } else if (kind == ChartKind::Quantiles && m_view->width() > 0)
        options.maxGroups = std::clamp((m_view->width() - 160) / (2 * line + 10), 3, options.maxGroups);
    return options;
}

int ChartPanel::yieldPairsHeight(int pixels, bool fold)
{
    if (pixels <= 0 || !m_pairs->isVisible())
        return 0;
    QList<int> sizes = m_splitter->sizes();
    if (sizes.size() != 2 || sizes[1] == 0)
        return 0;
    // The splitter keeps a pane at its least size or folds it whole: nothing in between.
    const int least = std::max(m_pairs->minimumSizeHint().height(),
        m_pairs->horizontalHeader()->height() + m_pairs->verticalHeader()->defaultSectionSize() + 4);
    const int given = fold ? sizes[1] : std::clamp(sizes[1] - least, 0, pixels);
    sizes[0] += given;
    sizes[1] -= given;
    m_splitter->setSizes(sizes);
    return given;
}

void ChartPanel::scheduleRebuild()
{
    m_timer->start();
}

std::unique_ptr<QChart> ChartPanel::buildChart(bool dark) const
{
    ChartOptions opts = options();
    opts.dark = dark;
    return kix::buildChart(m_kind, m_runs, opts, nullptr);
}

void ChartPanel::rebuildNow()
{
    m_timer->stop();
    m_baseline = effectiveBaseline(&m_fallbackNote);
    cancelBuilds(); // a build in flight for another kind or scope is dropped
    if (m_kind == ChartKind::Compare) {
        showCompare();
        return;
    }
    const bool choose = m_autoKind && m_chooseKind;
    if (!choose && m_runs.size() < m_asyncThreshold && m_builds.running() == 0) {
        const ChartOptions opts = options();
        if (m_chosen.isRun())
            m_chipVarying = paramVariation(m_runs).varying;
        applyBuild(prepareChart(m_kind, m_runs, opts), opts);
        return;
    }
    startBuild(choose);
}

void ChartPanel::cancelBuilds()
{
    m_builds.cancel();
}

void ChartPanel::startBuild(bool chooseKind)
{
    const ChartKind kind = m_kind;
    const RunList runs = m_runs;
    std::array<ChartOptions, kChartKinds> opts; // a chosen kind's options are ready for it
    for (int k = 0; k < kChartKinds; ++k)
        opts[k] = optionsFor(ChartKind(k));
    const bool chip = m_chosen.isRun(); // the baseline chip names what varies among the runs
    auto work = [kind, chooseKind, chip, runs, opts](const CancelToken& token) {
        Build build { chooseKind, {}, nullptr, {} };
        if (token.cancelled()) // superseded while it waited for a thread
            return build;
        const ChartKind built = chooseKind ? firstViewKind(runs, token) : kind;
        build.options = opts[int(built)];
        if (!token.cancelled()) // the choice may have taken a while; superseded while it runs, the builders stop soon
            build.prepared = std::make_shared<PreparedChart>(prepareChart(built, runs, build.options, token));
        if (chip && build.prepared && !token.cancelled())
            build.varying = paramVariation(runs).varying;
        return build;
    };
    m_builds.run(
        chartThreads(), std::move(work), [this](Build&& build) { takeBuild(std::move(build)); },
        [](Build&& stale) { freeOnChartThreads(std::move(stale.prepared)); });
}

void ChartPanel::takeBuild(Build&& build)
{
    if (build.prepared) {
        m_chipVarying = build.varying;
        if (build.chosen && m_autoKind) {
            m_chooseKind = false;
            showKind(build.prepared->kind);
        }
        if (build.prepared->kind == m_kind)
            applyBuild(std::move(*build.prepared), build.options, true);
        else
            rebuildNow(); // the user chose a kind while this one was chosen for them: build theirs
    }
    freeOnChartThreads(std::move(build.prepared));
}

void ChartPanel::applyBuild(PreparedChart&& prepared, const ChartOptions& options, bool defer)
{
    flushPending(); // what is left of the build before: the builds land in order
    auto previous = std::make_shared<ChartInfo>(std::move(m_info)); // freed off this thread, below
    // Once the pairs' model holds the new comparison, not the old: this holds the only reference.
    auto freePrevious = [previous = std::move(previous)]() mutable {
        if (previous && previous->comparison.pairs.size() > 1000)
            static_cast<void>(
                QtConcurrent::run(chartThreads(), [garbage = std::move(previous)]() mutable { garbage.reset(); }));
        previous.reset();
    };
    if (prepared.kind == ChartKind::Overview) {
        m_builtGroups = -1;
        m_overview->setOverview(std::move(prepared.overview)); // O(kernels × GPUs)
        m_info = ChartInfo {};
        m_info.title = chartKindTitle(ChartKind::Overview);
        m_info.isEmpty = prepared.info.isEmpty;
        if (!m_info.isEmpty)
            m_info.notes << m_overview->summary();
        m_pairsModel->setComparison({});
        freePrevious();
        m_stack->setCurrentWidget(m_overview);
        m_readout->hide(); // nothing to hover: the cells say it all
        m_unpin->hide();
        static_cast<ScopeLabel*>(m_scopeLabel)->setScope(m_scope);
        if (!m_pinned)
            setReadout({}, false);
        updateChoosers();
        updateBanner();
        emit rebuilt();
        return;
    }
    m_stack->setCurrentWidget(m_splitter);
    m_readout->show();
    m_defaultBaseline = prepared.defaultBaseline;
    const QStringList pairKeys = std::move(prepared.pairWorkloadKeys);
    const ChartKind builtKind = prepared.kind;
    QChart* chart = kix::drawChart(std::move(prepared), options, &m_info).release();
    noteBuiltGroups(builtKind, chart, options.maxGroups);
    // The layout its construction asked for would run before the next step, at no size: it is asked for again once
    // the chart is in the view (where it came when the chart went into the view at once).
    if (defer)
        QCoreApplication::removePostedEvents(chart, QEvent::LayoutRequest);
    // For a build from the worker (many runs), in three events, each of them short: the chart is made (above), laid
    // out (about 20 ms whatever the runs), then the pairs' table is filled and the old chart freed. Timers, not
    // posted events, between them: Qt runs the events a layout posts (its relayout, the scene's updates) before the
    // next timer, so a posted next part would come right after them, with no gap between.
    auto then = [this, defer](std::function<void()> next) {
        m_pending = std::move(next);
        if (defer)
            QTimer::singleShot(1, this, &ChartPanel::runPending);
        else
            runPending();
    };
    then([this, defer, chart, pairKeys, then, freePrevious = std::move(freePrevious)]() mutable {
        // What surrounds the chart first (the pairs' table shown or not, the choosers, the banner's lines), laid out
        // at once: the chart is then laid out once, at the size it keeps, not again in a later event when the view
        // shrinks or grows by the table's share or a line of the banner. Meanwhile the view holds an empty chart, so
        // that the old one is not laid out at the new size either.
        QChart* old = m_view->chart();
        if (!m_blank)
            m_blank = std::make_unique<QChart>();
        m_view->setChart(m_blank.get());
        m_pairs->setVisible(m_kind == ChartKind::Speedup);
        static_cast<ScopeLabel*>(m_scopeLabel)->setScope(m_scope);
        updateChoosers();
        updateBanner();
        QCoreApplication::sendPostedEvents(m_splitter, QEvent::LayoutRequest);
        QCoreApplication::sendPostedEvents(this, QEvent::LayoutRequest);
        m_view->setChart(chart); // the view does not delete the chart it replaces
        if (defer)
            QCoreApplication::postEvent(chart, new QEvent(QEvent::LayoutRequest));
        if (dynamic_cast<SpeedupChart*>(chart)) // after the chart's own: its labels are fitted first
            connect(chart, &QChart::plotAreaChanged, this, &ChartPanel::refitGroups);
        ChartHover* hover = ChartHover::of(chart);
        connect(hover, &ChartHover::hovered, this, [this](const QString& text) { setReadout(text, false); });
        connect(hover, &ChartHover::clicked, this, [this](const QString& text) { setReadout(text, true); });
        if (!m_pinned)
            setReadout({}, false);
        refitGroups(); // a build started before the view took its size now (a resize while it was prepared)
        if (old == m_blank.get())
            old = nullptr;
        then([this, old, comparison = m_info.comparison, pairKeys, freePrevious = std::move(freePrevious)]() mutable {
            // Freed later, never here: a rebuild may come from the old chart's own signal (a click or hover on one
            // of its series), and Qt Charts' items go on using themselves once that signal returns
            // (tst_chartpanel).
            if (old)
                old->deleteLater();
            m_pairsModel->setComparison(comparison, pairKeys);
            comparison = {};
            freePrevious();
            if (m_pairs->isVisibleTo(this))
                fitPairColumns();
            emit rebuilt();
        });
    });
}

void ChartPanel::showCompare()
{
    flushPending(); // a chart's build steps left would show its page again
    m_info = ChartInfo {};
    m_info.title = chartKindTitle(ChartKind::Compare);
    m_info.isEmpty = m_runs.isEmpty();
    m_stack->setCurrentWidget(m_compare);
    m_readout->hide(); // a table: nothing to hover
    m_unpin->hide();
    static_cast<ScopeLabel*>(m_scopeLabel)->setScope(m_scope);
    m_compare->setRuns(m_runs); // reads the documents off the GUI thread: CompareView::filled
    updateChoosers();
    updateBanner();
    emit rebuilt();
}

void ChartPanel::noteBuiltGroups(ChartKind kind, const QChart* chart, int maxGroups)
{
    m_builtKind = kind;
    m_builtGroups = -1;
    m_builtMaxGroups = maxGroups;
    if (kind != ChartKind::Speedup && kind != ChartKind::Quantiles)
        return;
    // The workloads are the categories: rows of a speed-up chart, columns of a quantile chart.
    const auto axes = chart->axes(kind == ChartKind::Speedup ? Qt::Vertical : Qt::Horizontal);
    for (const QAbstractAxis* axis : axes)
        if (const auto* categories = qobject_cast<const QBarCategoryAxis*>(axis))
            m_builtGroups = int(categories->count());
}

void ChartPanel::refitGroups()
{
    if (m_builtGroups < 0 || m_builtKind != m_kind || m_view->height() <= 0)
        return;
    if (const auto* speedup = dynamic_cast<const SpeedupChart*>(m_view->chart()))
        m_rowLines = speedup->rowLines(); // its labels wrap where the chart is narrow: fewer rows fit
    const int limit = optionsFor(m_builtKind).maxGroups;
    if (limit == m_builtMaxGroups)
        return;
    // Fewer rows than it draws, or room for more where it drew all it could (the scope may hold more workloads).
    // Either way a rebuild changes what is drawn, so a rebuild's own banner or table cannot make this loop; nor can
    // longer labels among more rows (optionsFor caps the count below one found too many at this size).
    const bool mayHoldMore = m_builtGroups >= m_builtMaxGroups;
    if (m_builtGroups > limit) {
        m_shrunkFrom = { m_view->size(), m_builtGroups };
        scheduleRebuild();
    } else if (limit > m_builtMaxGroups && mayHoldMore)
        scheduleRebuild();
}

void ChartPanel::runPending()
{
    if (!m_pending)
        return;
    const std::function<void()> step = std::exchange(m_pending, nullptr);
    step(); // it may leave the next step
}

void ChartPanel::flushPending()
{
    while (m_pending)
        runPending();
}

void ChartPanel::fitPairColumns()
{
    for (int c = 0; c < ComparisonModel::ColumnCount; ++c) {
        if (c == ComparisonModel::WarningsColumn)
            continue; // the last section stretches
        m_pairs->resizeColumnToContents(c);
        m_pairs->setColumnWidth(c, std::min(m_pairs->columnWidth(c), 240));
    }
}

bool ChartPanel::isRebuildPending() const
{
    return m_timer->isActive() || m_builds.running() > 0 || m_pending;
}

QChart* ChartPanel::chart() const
{
    return m_view->chart();
}

} // namespace kix
