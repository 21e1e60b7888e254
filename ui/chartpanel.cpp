#include "ui/chartpanel.h"

#include "model/quantiledata.h"
#include "ui/chartexportdialog.h"
#include "ui/chartexporter.h"
#include "ui/chartfactory.h"
#include "ui/chartstyle.h"
#include "ui/comparisonmodel.h"

#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabBar>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace kix {

namespace {

const QString kDefaultBaseline = QStringLiteral("<default>");
const QString kCurrentRunBaseline = QStringLiteral("<current run>");

} // namespace

ChartPanel::ChartPanel(QWidget* parent)
    : QWidget(parent)
    , m_tabs(new QTabBar(this))
    , m_log(new QCheckBox(QStringLiteral("Log scale"), this))
    , m_xLabel(new QLabel(QStringLiteral("x:"), this))
    , m_x(new QComboBox(this))
    , m_baselineLabel(new QLabel(QStringLiteral("Baseline:"), this))
    , m_baselineBox(new QComboBox(this))
    , m_scopeLabel(new QLabel(this))
    , m_banner(new QLabel(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_view(new QChartView(this))
    , m_pairs(new QTableView(this))
    , m_pairsModel(new ComparisonModel(this))
    , m_timer(new QTimer(this))
{
    for (ChartKind kind : { ChartKind::Quantiles, ChartKind::Sweep, ChartKind::Speedup, ChartKind::History })
        m_tabs->addTab(chartKindTitle(kind));
    m_tabs->setDrawBase(false);
    m_x->setToolTip(QStringLiteral("The workload parameter on the x axis"));
    m_baselineBox->setToolTip(QStringLiteral("Speed-up = baseline median / run median"));
    m_baselineBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_baselineBox->setMinimumContentsLength(16);
    m_x->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_tabs->setExpanding(false);
    m_tabs->setUsesScrollButtons(false);
    auto* exportButton = new QToolButton(this);
    exportButton->setText(QStringLiteral("Export…"));
    exportButton->setToolTip(QStringLiteral("Save the chart as PNG, SVG or PDF"));
    auto* copyButton = new QToolButton(this);
    copyButton->setText(QStringLiteral("Copy"));
    copyButton->setToolTip(QStringLiteral("Copy the chart to the clipboard as an image"));
    m_scopeLabel->setForegroundRole(QPalette::PlaceholderText);

    auto* controls = new QHBoxLayout;
    controls->addWidget(m_tabs);
    controls->addSpacing(12);
    controls->addWidget(m_log);
    controls->addWidget(m_xLabel);
    controls->addWidget(m_x);
    controls->addWidget(m_baselineLabel);
    controls->addWidget(m_baselineBox);
    controls->addStretch(1);
    controls->addWidget(m_scopeLabel);
    controls->addWidget(exportButton);
    controls->addWidget(copyButton);

    m_banner->setWordWrap(true);
    m_banner->setTextFormat(Qt::RichText);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(220);
    auto* sorted = new QSortFilterProxyModel(this);
    sorted->setSourceModel(m_pairsModel);
    sorted->setSortRole(ComparisonModel::SortRole);
    m_pairs->setModel(sorted);
    m_pairs->setSortingEnabled(true);
    m_pairs->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_pairs->setWordWrap(false);
    m_pairs->verticalHeader()->hide();
    m_pairs->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_pairs->horizontalHeader()->setStretchLastSection(true);
    m_pairs->sortByColumn(-1, Qt::AscendingOrder); // the comparison's order (by workload) until the user sorts
    const int widths[ComparisonModel::ColumnCount] = { 300, 90, 170, 200, 110, 100, 80, 80, 100, 70, 300 };
    for (int c = 0; c < ComparisonModel::ColumnCount; ++c)
        m_pairs->setColumnWidth(c, widths[c]);
    m_splitter->addWidget(m_view);
    m_splitter->addWidget(m_pairs);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_banner);
    layout->addWidget(m_splitter, 1);

    m_timer->setSingleShot(true);
    m_timer->setInterval(60); // ms: coalesces selection drags and keystrokes
    connect(m_timer, &QTimer::timeout, this, &ChartPanel::rebuildNow);
    connect(m_tabs, &QTabBar::currentChanged, this, [this](int index) {
        m_kind = static_cast<ChartKind>(index);
        rebuildNow();
    });
    connect(m_log, &QCheckBox::toggled, this, [this](bool on) {
        m_logY = on;
        rebuildNow();
    });
    connect(m_x, &QComboBox::activated, this, [this] {
        m_xParam = m_x->currentText();
        rebuildNow();
    });
    connect(m_baselineBox, &QComboBox::activated, this, [this] {
        const QString choice = m_baselineBox->currentData().toString();
        if (choice == kDefaultBaseline)
            m_baseline = {};
        else if (choice == kCurrentRunBaseline)
            m_baseline = m_currentRun ? Baseline::ofRun(m_currentRun) : Baseline {};
        else
            m_baseline = Baseline::ofProvider(choice);
        rebuildNow();
    });
    connect(exportButton, &QToolButton::clicked, this, &ChartPanel::exportChart);
    connect(copyButton, &QToolButton::clicked, this, &ChartPanel::copyChart);
    rebuildNow();
}

ChartPanel::~ChartPanel() = default;

void ChartPanel::setRuns(const RunList& runs, const QString& scope)
{
    m_runs = runs;
    m_scope = scope;
    scheduleRebuild();
}

void ChartPanel::setCurrentRun(const RunPtr& run)
{
    m_currentRun = run; // a run baseline stays the run the user chose; the chooser offers this one
    updateChoosers();
}

void ChartPanel::setKind(ChartKind kind)
{
    m_tabs->setCurrentIndex(int(kind)); // rebuilds through currentChanged
    m_kind = kind;
}

void ChartPanel::setLogScale(bool log)
{
    m_log->setChecked(log);
}

void ChartPanel::setXParam(const QString& param)
{
    m_xParam = param;
    rebuildNow();
}

void ChartPanel::setBaseline(const Baseline& baseline)
{
    m_baseline = baseline;
    rebuildNow();
}

ChartOptions ChartPanel::options() const
{
    ChartOptions options;
    options.logY = m_logY;
    options.xParam = m_xParam;
    options.baseline = m_baseline;
    options.dark = ChartStyle::isDark(palette());
    return options;
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
    std::unique_ptr<QChart> chart = kix::buildChart(m_kind, m_runs, options(), &m_info);
    QChart* old = m_view->chart();
    m_view->setChart(chart.release()); // the view does not delete the chart it replaces
    delete old;
    m_pairsModel->setComparison(m_info.comparison);
    m_pairs->setVisible(m_kind == ChartKind::Speedup);
    m_scopeLabel->setText(m_scope);
    updateChoosers();
    updateBanner();
    emit rebuilt();
}

bool ChartPanel::isRebuildPending() const
{
    return m_timer->isActive();
}

QChart* ChartPanel::chart() const
{
    return m_view->chart();
}

void ChartPanel::updateChoosers()
{
    m_log->setEnabled(m_kind != ChartKind::Speedup);
    const bool sweep = m_kind == ChartKind::Sweep || m_kind == ChartKind::History; // history: time or label
    m_x->clear();
    m_x->addItems(m_info.xCandidates);
    m_x->setCurrentText(m_info.xParam);
    m_x->setVisible(sweep && m_info.xCandidates.size() > 1);
    m_xLabel->setVisible(m_x->isVisibleTo(this));

    const bool speedup = m_kind == ChartKind::Speedup;
    const QString current = m_baseline.isRun() ? kCurrentRunBaseline
        : m_baseline.isEmpty()                 ? kDefaultBaseline
                                               : m_baseline.providers.value(0);
    m_baselineBox->clear();
    const Baseline fallback = Baseline::defaultFor(m_runs);
    m_baselineBox->addItem(
        QStringLiteral("Default (%1)").arg(fallback.isEmpty() ? QStringLiteral("none") : fallback.describe()),
        kDefaultBaseline);
    for (const QString& provider : m_info.providers)
        m_baselineBox->addItem(provider, provider);
    auto describe = [](const Run& run) -> QString {
        return run.provider + QStringLiteral(" · ") + shortGpuName(run.gpuDisplayName()) + QStringLiteral(" · ")
            + run.pass + QStringLiteral(" · ") + run.workloadSlug;
    };
    if (m_baseline.isRun())
        m_baselineBox->addItem(QStringLiteral("Run: ") + describe(*m_baseline.run), kCurrentRunBaseline);
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
}

void ChartPanel::updateBanner()
{
    const bool dark = ChartStyle::isDark(palette());
    QStringList lines;
    for (const QString& w : std::as_const(m_info.warnings))
        lines << QStringLiteral("<font color=\"%1\">⚠ %2</font>")
                     .arg(ChartStyle::warningColor(dark).name(), w.toHtmlEscaped());
    if (m_runs.isEmpty())
        lines << QStringLiteral("No runs in scope: load runs, or clear the filter.");
    else if (m_info.isEmpty)
        lines << QStringLiteral("<b>Nothing to draw.</b>");
    // Warnings one per line; notes (what was left out, equal digests) together on one quieter line.
    QStringList notes;
    for (const QString& n : std::as_const(m_info.notes))
        notes << n.toHtmlEscaped();
    if (!notes.isEmpty())
        lines << QStringLiteral("<small>") + notes.join(QStringLiteral(" · ")) + QStringLiteral("</small>");
    m_banner->setText(lines.join(QStringLiteral("<br>")));
    m_banner->setVisible(!lines.isEmpty());
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
    ChartExportDialog dialog(chartKindName(m_kind), ChartStyle::isDark(palette()), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString error;
    if (!ChartExporter::exportChart(buildChart(dialog.dark()), dialog.path(), dialog.pixelSize(), dialog.dpi(), &error))
        QMessageBox::warning(this, QStringLiteral("Export chart"), error);
}

void ChartPanel::copyChart()
{
    const QSize size = m_view->size().isEmpty() ? QSize(1200, 800) : m_view->size();
    ChartExporter::copyToClipboard(buildChart(ChartStyle::isDark(palette())), size, devicePixelRatioF());
}

} // namespace kix
