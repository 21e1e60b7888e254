// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/chartpanel.h"

#include "model/chartdata/overviewdata.h"
#include "model/chartdata/quantiledata.h"
#include "model/workload.h"
#include "ui/chartexportdialog.h"
#include "ui/charts/chartbanner.h"
#include "ui/charts/chartexporter.h"
#include "ui/charts/chartfactory.h"
#include "ui/charts/charthover.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/speedupchart.h"
#include "ui/disposal.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/overviewmodel.h"
#include "ui/panels/compareview.h"
#include "ui/panels/overviewtable.h"
#include "ui/panels/quantileviewchooser.h"

#include <QAction>
#include <QBarCategoryAxis>
#include <QChartView>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMessageBox>
#include <QScatterSeries>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabBar>
#include <QTableView>
#include <QThreadPool>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <array>

namespace kix {

namespace {

const QString kDefaultBaseline = QStringLiteral("<default>");
const QString kCurrentRunBaseline = QStringLiteral("<current run>");

// Charts are prepared in their own two threads: a long build (Rank over a million runs) never holds up the
// filter's workers, and a newer build need not wait for an older one to end.
Q_GLOBAL_STATIC(QThreadPool, chartThreads)

constexpr int kChartKinds = chartKindCount;

QThreadPool* chartPool()
{
    QThreadPool* pool = chartThreads();
    pool->setMaxThreadCount(2);
    return pool;
}

// The scope beside the tabs ("all 168 shown runs"): where the row has no room for it, a shorter form ("168 runs",
// then "168") rather than a clipped one; the tooltip keeps the whole text.
class ScopeLabel : public QLabel
{
public:
    using QLabel::QLabel;
    void setScope(const QString& scope)
    {
        m_scope = scope;
        setToolTip(scope);
        fit();
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QLabel::resizeEvent(event);
        fit();
    }

private:
    void fit()
    {
        QString shorter = m_scope;
        shorter.remove(QStringLiteral("all ")).remove(QStringLiteral("shown "));
        const QString count = m_scope.section(QLatin1Char(' '), m_scope.startsWith(QLatin1String("all ")) ? 1 : 0, 0);
        const int room = contentsRect().width();
        QString text = count;
        if (fontMetrics().horizontalAdvance(m_scope) <= room)
            text = m_scope;
        else if (fontMetrics().horizontalAdvance(shorter) <= room)
            text = shorter;
        if (QLabel::text() != text)
            setText(text);
    }
    QString m_scope;
};

} // namespace

ChartPanel::ChartPanel(QWidget* parent)
    : QWidget(parent)
    , m_tabs(new QTabBar(this))
    , m_log(new QCheckBox(QStringLiteral("Log scale"), this))
    , m_widen(new QCheckBox(QStringLiteral("Across protocols"), this))
    , m_xLabel(new QLabel(QStringLiteral("x:"), this))
    , m_x(new QComboBox(this))
    , m_baselineLabel(new QLabel(QStringLiteral("vs"), this))
    , m_baselineBox(new QComboBox(this))
    , m_cohortBox(new QComboBox(this))
    , m_quantileViewBox(new QuantileViewChooser(this))
    , m_scopeLabel(new ScopeLabel(this))
    , m_banner(new QLabel(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_stack(new QStackedWidget(this))
    , m_overview(new OverviewTable(this))
    , m_compare(new CompareView(this))
    , m_view(new QChartView(this))
    , m_pairs(new QTableView(this))
    , m_pairsModel(new ComparisonModel(this))
    , m_timer(new QTimer(this))
    , m_readout(new QLabel(this))
    , m_chip(new QToolButton(this))
    , m_unpin(new QToolButton(this))
    , m_latest(std::make_shared<std::atomic<int>>(0))
{
    for (ChartKind kind : { ChartKind::Quantiles, ChartKind::Sweep, ChartKind::Speedup, ChartKind::History,
             ChartKind::Rank, ChartKind::Overview, ChartKind::Records, ChartKind::Compare })
        m_tabs->addTab(chartKindTitle(kind));
    m_tabs->setTabToolTip(int(ChartKind::Records),
        QStringLiteral("A cohort's record over time: who set each record, by how much (Ctrl+7)"));
    m_tabs->setTabToolTip(int(ChartKind::Compare),
        QStringLiteral("2 to 8 selected runs field by field, material differences marked (Ctrl+8)"));
    m_tabs->setDrawBase(false);
    for (int i = 0; i < m_tabs->count(); ++i) { // View > Chart: Ctrl+1, Ctrl+2, ... one per kind
        auto* action = new QAction(m_tabs->tabText(i), this);
        action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        connect(action, &QAction::triggered, this, [this, i] { m_tabs->setCurrentIndex(i); });
        m_kindActions << action;
    }
    m_x->setToolTip(QStringLiteral("The workload parameter on the x axis"));
    m_baselineBox->setToolTip(QStringLiteral("Speed-up = baseline median / run median"));
    m_baselineBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_baselineBox->setMinimumContentsLength(7); // with four chart tabs, the row must still fit 1024 px
    m_x->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_cohortBox->setToolTip(QStringLiteral("The cohort of comparable runs to rank"));
    m_cohortBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_cohortBox->setMinimumContentsLength(12);
    m_cohortBox->setObjectName(QStringLiteral("cohortChooser"));
    m_widen->setObjectName(QStringLiteral("rankAcrossProtocols"));
    m_widen->setToolTip(QStringLiteral("Rank runs of different protocol versions and environments together (the "
                                       "format's family-level scope): each entry names how it differs from the "
                                       "best. Off: the format's strict comparison key."));
    m_tabs->setExpanding(false);
    // Five kinds: below ~1076 px the tab bar scrolls rather than widening the window (Ctrl+1..5 reach every kind).
    m_tabs->setUsesScrollButtons(true);
    // Export, copy and maximize as one compact row of tool buttons: the controls must fit a 1024 px window.
    auto* exportButton = new QToolButton(this);
    exportButton->setText(QStringLiteral("Export…"));
    exportButton->setToolTip(QStringLiteral("Save the chart as PNG, SVG or PDF (Ctrl+E)"));
    auto* copyButton = new QToolButton(this);
    copyButton->setText(QStringLiteral("Copy"));
    copyButton->setToolTip(QStringLiteral("Copy the chart to the clipboard as an image (Ctrl+Shift+C)"));
    auto* maximizeButton = new QToolButton(this);
    maximizeButton->setText(QStringLiteral("⤢"));
    maximizeButton->setAccessibleName(QStringLiteral("Maximize chart"));
    maximizeButton->setToolTip(QStringLiteral("Give the chart the whole window, or restore the layout (Ctrl+M)"));
    m_scopeLabel->setObjectName(QStringLiteral("chartScope"));
    m_scopeLabel->setForegroundRole(QPalette::PlaceholderText);
    m_scopeLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // never widens the window
    m_scopeLabel->setMinimumWidth(60);
    m_chip->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_chip->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed); // a long run name never widens the window
    m_chip->setMinimumWidth(120);
    m_chip->setMaximumWidth(320);
    m_chip->setAutoRaise(false);
    m_chip->setToolTip(QStringLiteral("The run every other run is compared with; click to go back to the default "
                                      "baseline"));
    m_chip->setObjectName(QStringLiteral("baselineChip"));
    m_chip->hide();
    m_unpin->setText(QStringLiteral("Unpin ✕"));
    m_unpin->setToolTip(QStringLiteral("Let the read-out follow the mouse again (Esc)"));
    m_unpin->setObjectName(QStringLiteral("unpinReadout"));
    m_unpin->setAutoRaise(true);
    m_unpin->hide();
    connect(m_unpin, &QToolButton::clicked, this, &ChartPanel::unpinReadout);

    auto* controls = new QHBoxLayout;
    controls->addWidget(m_tabs);
    controls->addSpacing(12);
    controls->addWidget(m_log);
    controls->addWidget(m_quantileViewBox);
    controls->addWidget(m_xLabel);
    controls->addWidget(m_x);
    controls->addWidget(m_baselineLabel);
    controls->addWidget(m_baselineBox);
    controls->addWidget(m_chip);
    controls->addWidget(m_cohortBox, 2);
    controls->addWidget(m_widen);
    controls->addWidget(m_scopeLabel, 1);
    controls->addWidget(exportButton);
    controls->addWidget(copyButton);
    controls->addWidget(maximizeButton);

    m_banner->setObjectName(QStringLiteral("chartBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextFormat(Qt::RichText);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    m_banner->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    connect(m_banner, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link == QLatin1String("expand") || link == QLatin1String("collapse"))
            setWarningsExpanded(link == QLatin1String("expand"));
        else if (link.startsWith(QLatin1String("filter:")))
            emit filterRequested(link.mid(7));
        else if (link == QLatin1String("selection:dismiss"))
            emit selectionDismissed();
        else if (link == QLatin1String("kind:overview"))
            setKind(ChartKind::Overview);
    });
    // One line under the controls for the value under the mouse; it never changes height, so the chart does not
    // move under the mouse.
    m_readout->setTextFormat(Qt::RichText);
    m_readout->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    m_readout->setFixedHeight(m_readout->fontMetrics().height() + 4);
    m_readout->setObjectName(QStringLiteral("chartReadout"));
    m_unpin->setFixedHeight(m_readout->height());

    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(220);
    m_view->installEventFilter(this); // its resizes: refitGroups
    m_pairs->installEventFilter(this); // its height, for the next speed-up's view (optionsFor)
    m_pairs->setModel(m_pairsModel); // it sorts itself: no proxy to map a million pairs on each comparison
    m_pairs->setSortingEnabled(true);
    m_pairs->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_pairs->setWordWrap(false);
    m_pairs->verticalHeader()->hide();
    m_pairs->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_pairs->horizontalHeader()->setStretchLastSection(true);
    m_pairs->sortByColumn(-1, Qt::AscendingOrder); // the comparison's order (by workload) until the user sorts
    // The answer first: speed-up and verdict, then what was compared, then how it was decided.
    const int order[]
        = { ComparisonModel::SpeedupColumn, ComparisonModel::VerdictColumn, ComparisonModel::WorkloadColumn,
              ComparisonModel::ProviderColumn, ComparisonModel::MedianColumn, ComparisonModel::BaselineColumn,
              ComparisonModel::BaselineMedianColumn, ComparisonModel::GpuColumn, ComparisonModel::BandwidthColumn,
              ComparisonModel::MethodColumn, ComparisonModel::PValueColumn, ComparisonModel::WarningsColumn };
    static_assert(sizeof(order) / sizeof(order[0]) == ComparisonModel::ColumnCount, "every column has a place");
    for (int visual = 0; visual < ComparisonModel::ColumnCount; ++visual)
        m_pairs->horizontalHeader()->moveSection(m_pairs->horizontalHeader()->visualIndex(order[visual]), visual);
    m_pairs->horizontalHeader()->setResizeContentsPrecision(100);
    m_splitter->addWidget(m_view);
    m_splitter->addWidget(m_pairs);
    m_splitter->setStretchFactor(0, 4);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({ 400, 100 }); // the pairs a fifth: the chart is the answer

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_banner);
    auto* readoutRow = new QHBoxLayout;
    readoutRow->setContentsMargins(0, 0, 0, 0);
    readoutRow->addWidget(m_readout, 1);
    readoutRow->addWidget(m_unpin); // beside the text, never past the right edge
    layout->addLayout(readoutRow);
    m_stack->addWidget(m_splitter);
    m_stack->addWidget(m_overview);
    m_stack->addWidget(m_compare);
    layout->addWidget(m_stack, 1);

    m_timer->setSingleShot(true);
    m_timer->setInterval(60); // ms: coalesces selection drags and keystrokes
    connect(m_timer, &QTimer::timeout, this, &ChartPanel::rebuildNow);
    connect(m_tabs, &QTabBar::currentChanged, this, [this](int index) {
        m_autoKind = false; // a tab the user picks stays picked (the scope switches tabs with signals blocked)
        m_kind = static_cast<ChartKind>(index);
        rebuildNow();
    });
    connect(m_log, &QCheckBox::toggled, this, [this](bool on) {
        m_logY = on;
        rebuildNow();
    });
    connect(m_quantileViewBox, &QComboBox::activated, this, [this] { rebuildNow(); });
    connect(m_x, &QComboBox::activated, this, [this] {
        m_xParam = m_x->currentText();
        rebuildNow();
    });
    connect(m_baselineBox, &QComboBox::activated, this, [this] {
        const QString choice = m_baselineBox->currentData().toString();
        if (choice == kDefaultBaseline)
            m_chosen = {};
        else if (choice == kCurrentRunBaseline)
            m_chosen = m_chosen.isRun() ? m_chosen : m_currentRun ? Baseline::ofRun(m_currentRun) : Baseline {};
        else
            m_chosen = Baseline::ofProvider(choice);
        rebuildNow();
    });
    connect(m_widen, &QCheckBox::toggled, this, [this](bool on) {
        m_rankWidened = on;
        m_cohort.clear(); // the cohorts are others now
        rebuildNow();
    });
    connect(m_cohortBox, &QComboBox::activated, this, [this] {
        m_cohort = m_cohortBox->currentData().toString();
        rebuildNow();
    });
    connect(m_overview, &OverviewTable::filterRequested, this, [this](const QString& clauses) {
        m_autoKind = true; // one kernel on one GPU is charted once the filter applies
        if (m_selected > 0)
            emit selectionDismissed(); // the filter's runs, not a selection, answer the click
        emit filterRequested(clauses);
    });
    connect(m_compare, &CompareView::statusMessage, this, &ChartPanel::statusMessage);
    connect(exportButton, &QToolButton::clicked, this, &ChartPanel::exportChart);
    connect(copyButton, &QToolButton::clicked, this, &ChartPanel::copyChart);
    connect(maximizeButton, &QToolButton::clicked, this, &ChartPanel::maximizeRequested);
    connect(m_chip, &QToolButton::clicked, this, [this] {
        setBaseline({});
        emit statusMessage(QStringLiteral("Baseline: back to the default."));
    });
    rebuildNow();
}

ChartPanel::~ChartPanel()
{
    m_latest->store(-1); // builds not yet started return at once
    for (QFutureWatcher<Build>* build : std::as_const(m_builds))
        build->waitForFinished();
    flushPending(); // the pairs' model lets go of the old comparison first: that is freed off this thread
}

void ChartPanel::setRuns(const RunList& runs, const QString& scope)
{
    if (m_pinned && runs != m_runs)
        unpinReadout(); // a value pinned on other runs' chart would outlive what it describes
    // The list this replaces may be the last copy of a million runs: freeing it here would hold up this thread.
    if (runs != m_runs)
        m_shrunkFrom = {}; // other workloads, other labels
    RunList previous = std::exchange(m_runs, runs);
    const bool large = previous.size() > 5000;
    disposeOffThread(std::move(previous), large);
    m_scope = scope;
    // A chosen baseline that the runs no longer contain falls back to the default (see effectiveBaseline); the
    // status bar says so once, when it happens.
    QString note;
    const bool wasFallback = isBaselineFallback();
    effectiveBaseline(&note);
    if (!note.isEmpty() && !wasFallback)
        emit statusMessage(note);
    // The first view of many runs is chosen off the GUI thread, with the build (startBuild): it reads every run.
    m_chooseKind = m_autoKind && runs.size() >= m_asyncThreshold;
    if (m_autoKind && !m_chooseKind)
        showKind(firstViewKind(runs));
    scheduleRebuild();
}

void ChartPanel::showKind(ChartKind kind)
{
    if (kind == m_kind)
        return;
    const QSignalBlocker block(m_tabs); // the caller builds
    m_tabs->setCurrentIndex(int(kind));
    m_kind = kind;
}

void ChartPanel::setSelectionScope(int selected, int filtered)
{
    m_selected = selected;
    m_filtered = filtered;
}

Baseline ChartPanel::effectiveBaseline(QString* note) const
{
    // Comparing the shown runs with one the filter hides would be a surprise; dropping the user's choice because a
    // keystroke hid it for a moment would be another. So the choice is kept and only used while it is in scope.
    note->clear();
    if (m_chosen.isRun()) {
        if (m_runs.contains(m_chosen.run))
            return m_chosen;
        const Run& gone = *m_chosen.run;
        *note = QStringLiteral("The baseline run %1 · %2 · %3 is not in scope (filter or selection): charting against "
                               "the default baseline until it is shown again.")
                    .arg(gone.provider, shortGpuName(gone.gpuDisplayName()), gone.workloadSlug);
        return {};
    }
    if (!m_chosen.isEmpty()) {
        for (const RunPtr& run : m_runs)
            if (m_chosen.providers.contains(run->provider))
                return m_chosen;
        *note = QStringLiteral("No %1 run is in scope: charting against the default baseline until one is shown again.")
                    .arg(m_chosen.describe());
        return {};
    }
    return {};
}

void ChartPanel::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape && m_pinned) {
        unpinReadout();
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

void ChartPanel::setCurrentRun(const RunPtr& run)
{
    if (run == m_currentRun)
        return;
    // Every chart marks the current run: a chart that draws the old or the new one is built again. Rank also shows
    // the current run's cohort until one is chosen.
    const bool drawn = (run && m_runs.contains(run)) || (m_currentRun && m_runs.contains(m_currentRun));
    m_currentRun = run; // a run baseline stays the run the user chose; the chooser offers this one
    if (drawn || ((m_kind == ChartKind::Rank || m_kind == ChartKind::Records) && m_cohort.isEmpty()))
        scheduleRebuild();
    updateChoosers();
}

void ChartPanel::setKind(ChartKind kind)
{
    m_autoKind = false;
    m_tabs->setCurrentIndex(int(kind)); // rebuilds through currentChanged
    m_kind = kind;
}

void ChartPanel::setBaseline(const Baseline& baseline)
{
    m_chosen = baseline;
    rebuildNow();
}

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
    ++m_generation; // a build in flight for another kind or scope is dropped
    m_latest->store(m_generation);
    if (m_kind == ChartKind::Compare) {
        showCompare();
        return;
    }
    const bool choose = m_autoKind && m_chooseKind;
    if (!choose && m_runs.size() < m_asyncThreshold && m_builds.isEmpty()) {
        const ChartOptions opts = options();
        if (m_chosen.isRun())
            m_chipVarying = paramVariation(m_runs).varying;
        applyBuild(prepareChart(m_kind, m_runs, opts), opts);
        return;
    }
    startBuild(choose);
}

void ChartPanel::startBuild(bool chooseKind)
{
    const int generation = m_generation;
    const ChartKind kind = m_kind;
    const RunList runs = m_runs;
    std::array<ChartOptions, kChartKinds> opts; // a chosen kind's options are ready for it
    for (int k = 0; k < kChartKinds; ++k)
        opts[k] = optionsFor(ChartKind(k));
    const std::shared_ptr<std::atomic<int>> latest = m_latest;
    auto* watcher = new QFutureWatcher<Build>(this);
    m_builds << watcher;
    connect(watcher, &QFutureWatcher<Build>::finished, this, [this, watcher] {
        m_builds.removeOne(watcher);
        watcher->deleteLater();
        QFuture<Build> future = watcher->future();
        Build build = future.takeResult(); // the watcher keeps no copy: the data is freed below, off this thread
        if (build.generation == m_generation && build.prepared) {
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
        // A ranking or comparison of a million runs takes long to free: the pool frees it.
        static_cast<void>(
            QtConcurrent::run(chartPool(), [garbage = std::move(build.prepared)]() mutable { garbage.reset(); }));
    });
    const bool chip = m_chosen.isRun(); // the baseline chip names what varies among the runs
    watcher->setFuture(QtConcurrent::run(chartPool(), [generation, kind, chooseKind, chip, runs, opts, latest]() {
        Build build { generation, chooseKind, {}, nullptr, {} };
        if (latest->load() != generation) // superseded while it waited for a thread
            return build;
        const BuildCancel cancel { latest.get(), generation };
        const ScopedBuildCancel polled(cancel); // superseded while it runs: the builders stop soon (buildCancelled)
        const ChartKind built = chooseKind ? firstViewKind(runs) : kind;
        build.options = opts[int(built)];
        if (latest->load() == generation) // the choice may have taken a while
            build.prepared = std::make_shared<PreparedChart>(prepareChart(built, runs, build.options));
        if (chip && build.prepared && !cancel.cancelled())
            build.varying = paramVariation(runs).varying;
        return build;
    }));
}

void ChartPanel::applyBuild(PreparedChart&& prepared, const ChartOptions& options, bool defer)
{
    flushPending(); // what is left of the build before: the builds land in order
    auto previous = std::make_shared<ChartInfo>(std::move(m_info)); // freed off this thread, below
    // Once the pairs' model holds the new comparison, not the old: this holds the only reference.
    auto freePrevious = [previous = std::move(previous)]() mutable {
        if (previous && previous->comparison.pairs.size() > 1000)
            static_cast<void>(
                QtConcurrent::run(chartPool(), [garbage = std::move(previous)]() mutable { garbage.reset(); }));
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
            // (tst_chartlifetime).
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

bool ChartPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Resize) {
        if (watched == m_view)
            refitGroups();
        else if (watched == m_pairs && m_pairs->isVisibleTo(this) && m_pairs->height() > 0)
            m_pairsHeight = m_pairs->height();
    }
    return QWidget::eventFilter(watched, event);
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

void ChartPanel::setReadout(const QString& text, bool pin)
{
    if (m_pinned && !pin)
        return; // a pinned read-out stays until it is unpinned or another click replaces it
    m_pinned = pin && !text.isEmpty();
    m_unpin->setVisible(m_pinned);
    m_readoutText = text;
    // Rich text, so that Qt wraps it: a widened cohort's differences are longer than the screen is wide.
    QString html = text.toHtmlEscaped();
    html.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    m_readout->setToolTip(text.isEmpty() ? QString() : QStringLiteral("<p>") + html + QStringLiteral("</p>"));
    QString line = text.toHtmlEscaped();
    line.replace(QLatin1Char('\n'), QStringLiteral(" · "));
    if (text.isEmpty()) {
        QScatterSeries* marker = chart() ? ChartStyle::currentRunMarker(chart()) : nullptr;
        m_readout->setText((marker ? QStringLiteral("◎ ") + marker->property("runLabel").toString().toHtmlEscaped()
                                       + QStringLiteral(" · ")
                                   : QString())
            + QStringLiteral("<span style=\"color:%1\">Hover a bar, box or point for its exact values; "
                             "click to pin them here.</span>")
                  .arg(palette().color(QPalette::PlaceholderText).name()));
    } else if (m_pinned)
        m_readout->setText(QStringLiteral("<b>Pinned:</b> ") + line); // words: a pin glyph is a blank box in many fonts
    else
        m_readout->setText(line);
}

QString ChartPanel::readoutText() const
{
    return m_readoutText;
}

void ChartPanel::unpinReadout()
{
    m_pinned = false;
    setReadout({}, false);
}

void ChartPanel::setWarningsExpanded(bool expanded)
{
    m_warningsExpanded = expanded;
    updateBanner();
}

bool ChartPanel::isRebuildPending() const
{
    return m_timer->isActive() || !m_builds.isEmpty() || m_pending;
}

QChart* ChartPanel::chart() const
{
    return m_view->chart();
}

void ChartPanel::updateChoosers()
{
    const bool quantiles = m_kind == ChartKind::Quantiles;
    const bool boxes = quantiles && m_info.quantileView == QuantileView::Box; // distributions: always a log axis
    m_log->setVisible(boxes || m_kind == ChartKind::Sweep || m_kind == ChartKind::History);
    static_cast<QuantileViewChooser*>(m_quantileViewBox)
        ->showDrawn(m_info.quantileView, m_info.distributionUnavailable);
    m_quantileViewBox->setVisible(quantiles);
    m_cohortBox->clear();
    for (int i = 0; i < m_info.cohortIds.size(); ++i) {
        m_cohortBox->addItem(m_info.cohorts.value(i), m_info.cohortIds[i]);
        m_cohortBox->setItemData(i, m_info.cohorts.value(i), Qt::ToolTipRole);
    }
    m_cohortBox->setCurrentIndex(m_cohortBox->findData(m_info.cohort));
    m_cohortBox->setToolTip(m_cohortBox->currentText());
    m_cohortBox->setVisible((m_kind == ChartKind::Rank || m_kind == ChartKind::Records) && m_info.cohortIds.size() > 1);
    m_widen->setVisible(m_kind == ChartKind::Rank);
    const bool sweep = m_kind == ChartKind::Sweep || m_kind == ChartKind::History; // history: time or label
    m_x->clear();
    m_x->addItems(m_info.xCandidates);
    m_x->setCurrentText(m_info.xParam);
    m_x->setVisible(sweep && m_info.xCandidates.size() > 1);
    m_xLabel->setVisible(m_x->isVisibleTo(this));

    const bool speedup = m_kind == ChartKind::Speedup;
    const QString current = m_chosen.isRun() ? kCurrentRunBaseline
        : m_chosen.isEmpty()                 ? kDefaultBaseline
                                             : m_chosen.providers.value(0);
    m_baselineBox->clear();
    const Baseline& fallback = m_defaultBaseline;
    m_baselineBox->addItem(
        QStringLiteral("Default (%1)").arg(fallback.isEmpty() ? QStringLiteral("none") : fallback.describe()),
        kDefaultBaseline);
    for (const QString& provider : m_info.providers)
        m_baselineBox->addItem(provider, provider);
    auto describe = [](const Run& run) -> QString {
        return run.provider + QStringLiteral(" · ") + shortGpuName(run.gpuDisplayName()) + QStringLiteral(" · ")
            + run.pass + QStringLiteral(" · ") + run.workloadSlug;
    };
    if (m_chosen.isRun())
        m_baselineBox->addItem(QStringLiteral("Run: ") + describe(*m_chosen.run), kCurrentRunBaseline);
    else if (m_currentRun)
        m_baselineBox->addItem(QStringLiteral("Current run: ") + describe(*m_currentRun), kCurrentRunBaseline);
    for (int i = 0; i < m_baselineBox->count(); ++i)
        m_baselineBox->setItemData(i, m_baselineBox->itemText(i), Qt::ToolTipRole);
    const int index = m_baselineBox->findData(current);
    if (index >= 0)
        m_baselineBox->setCurrentIndex(index);
    else if (!current.isEmpty() && current != kDefaultBaseline) {
        m_baselineBox->addItem(current, current); // a provider not in scope: keep it visible
        m_baselineBox->setCurrentIndex(m_baselineBox->count() - 1);
    }
    m_baselineBox->setVisible(speedup);
    m_baselineLabel->setVisible(speedup);
    if (m_chosen.isRun()) {
        const Run& run = *m_chosen.run;
        m_chip->setText(QStringLiteral("%1: %2 · %3 · %4  ✕")
                            .arg(m_baseline.isRun() ? QStringLiteral("Baseline run")
                                                    : QStringLiteral("Baseline run (not in scope)"),
                                run.provider, shortGpuName(run.gpuDisplayName()), paramsLabel(run, m_chipVarying)));
    }
    m_chip->setVisible(speedup && m_chosen.isRun());
}

void ChartPanel::updateBanner()
{
    QString html = chartBannerHtml(m_info, m_runs.isEmpty(), m_kind == ChartKind::Speedup ? m_fallbackNote : QString(),
        m_warningsExpanded, ChartStyle::isDark(palette()));
    if (m_selected > 0) {
        // A stale selection must not drive the charts silently.
        const QString line = QStringLiteral("<b>Charting the %1 selected runs</b>, not the %2 the filter shows. "
                                            "<a href=\"selection:dismiss\">Chart the filter</a>")
                                 .arg(m_selected)
                                 .arg(m_filtered);
        html = html.isEmpty() ? line : line + QStringLiteral("<br>") + html;
    }
    m_banner->setText(html);
    m_banner->setToolTip((m_info.warnings + m_info.notes).join(QLatin1Char('\n')));
    m_banner->setVisible(!html.isEmpty());
}

QString ChartPanel::bannerText() const
{
    return m_banner->text();
}

void ChartPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange
        || event->type() == QEvent::ThemeChange)
        scheduleRebuild(); // follow the system's light/dark palette
}

void ChartPanel::exportChart()
{
    if (m_kind == ChartKind::Compare) {
        m_compare->exportDialog();
        return;
    }
    if (m_kind == ChartKind::Overview) {
        emit statusMessage(
            QStringLiteral("The overview is a table, not a chart: Copy puts it on the clipboard as text; "
                           "the other tabs export charts."));
        return;
    }
    ChartExportDialog dialog(chartKindName(m_kind), ChartStyle::isDark(palette()), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString error;
    if (!ChartExporter::exportChart(buildChart(dialog.dark()), dialog.path(), dialog.pixelSize(), dialog.dpi(), &error))
        QMessageBox::warning(this, QStringLiteral("Export chart"), error);
    else
        emit statusMessage(QStringLiteral("Chart saved to %1").arg(QDir::toNativeSeparators(dialog.path())));
}

void ChartPanel::copyChart()
{
    if (m_kind == ChartKind::Compare) {
        m_compare->copy(CompareView::Format::Markdown);
        return;
    }
    if (m_kind == ChartKind::Overview) {
        QGuiApplication::clipboard()->setText(m_overview->overviewModel()->toTsv());
        emit statusMessage(QStringLiteral("Overview copied to the clipboard as tab-separated text"));
        return;
    }
    const QSize size = m_view->size().isEmpty() ? QSize(1200, 800) : m_view->size();
    ChartExporter::copyToClipboard(buildChart(ChartStyle::isDark(palette())), size, devicePixelRatioF());
    emit statusMessage(QStringLiteral("Chart copied to the clipboard (%1×%2 px)").arg(size.width()).arg(size.height()));
}

} // namespace kix
