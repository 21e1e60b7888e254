// SPDX-License-Identifier: Apache-2.0
// ChartPanel: its widgets set up and wired, and the scope, kind and baseline it is given.
#include "ui/panels/chartpanel.h"

#include "model/chartdata/quantiledata.h"
#include "ui/charts/chartfactory.h"
#include "ui/disposal.h"
#include "ui/models/comparisonmodel.h"
#include "ui/panels/compareview.h"
#include "ui/panels/overviewtable.h"
#include "ui/panels/quantileviewchooser.h"
#include "ui/panels/scopelabel.h"

#include <QAction>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabBar>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace kix {

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
{
    setUpTabs();
    setUpChoosers();
    QHBoxLayout* controls = setUpControlsRow();
    setUpBanner();
    setUpChartView();
    layOutPanel(controls);
    connectControls();
    rebuildNow();
}

void ChartPanel::setUpTabs()
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
    m_tabs->setExpanding(false);
    // Five kinds: below ~1076 px the tab bar scrolls rather than widening the window (Ctrl+1..5 reach every kind).
    m_tabs->setUsesScrollButtons(true);
}

void ChartPanel::setUpChoosers()
{
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
}

QHBoxLayout* ChartPanel::setUpControlsRow()
{
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
    connect(exportButton, &QToolButton::clicked, this, &ChartPanel::exportChart);
    connect(copyButton, &QToolButton::clicked, this, &ChartPanel::copyChart);
    connect(maximizeButton, &QToolButton::clicked, this, &ChartPanel::maximizeRequested);
    return controls;
}

void ChartPanel::setUpBanner()
{
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
}

void ChartPanel::setUpChartView()
{
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
}

void ChartPanel::layOutPanel(QHBoxLayout* controls)
{
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
}

void ChartPanel::connectControls()
{
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
    connect(m_baselineBox, &QComboBox::activated, this, &ChartPanel::chooseBaseline);
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
    connect(m_chip, &QToolButton::clicked, this, [this] {
        setBaseline({});
        emit statusMessage(QStringLiteral("Baseline: back to the default."));
    });
}

ChartPanel::~ChartPanel()
{
    cancelBuilds(); // builds not yet started return at once
    m_builds.waitForDone();
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

void ChartPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange
        || event->type() == QEvent::ThemeChange)
        scheduleRebuild(); // follow the system's light/dark palette
}

} // namespace kix
