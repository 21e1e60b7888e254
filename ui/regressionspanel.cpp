#include "ui/regressionspanel.h"

#include "model/historyreport.h"
#include "model/runfilterproxy.h"
#include "model/runtablemodel.h"
#include "ui/chartpanel.h"
#include "ui/chartstyle.h"
#include "ui/mainwindow.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include <QAbstractTableModel>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelection>
#include <QLabel>
#include <QSet>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace kix {

// The rows: each change of the history, then each unplaceable run.
class HistoryChangesModel : public QAbstractTableModel
{
public:
    enum Column { Kind, Ratio, Series, Before, After, Evidence, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    void setHistory(History history)
    {
        beginResetModel();
        m_history = std::move(history);
        endResetModel();
    }
    const History& history() const { return m_history; }

    int rowCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_history.changes.size() + m_history.unplaceable.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        static const char* const names[ColumnCount] = { "Kind", "Ratio", "Series", "Before", "After", "Evidence" };
        if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 && section < ColumnCount)
            return QString::fromLatin1(names[section]);
        return {};
    }

    QVariant data(const QModelIndex& index, int role) const override
    {
        if (!index.isValid() || index.row() >= rowCount())
            return {};
        const int row = index.row();
        if (row >= m_history.changes.size()) {
            const Run& run = *m_history.unplaceable[row - m_history.changes.size()];
            if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
                return {};
            switch (index.column()) {
            case Kind:
                return QStringLiteral("unplaceable");
            case Series:
                return run.externalId.isEmpty() ? run.name : run.externalId;
            case Evidence:
                return QStringLiteral("no usable observedAt: %1").arg(run.file + run.pointer);
            default:
                return {};
            }
        }
        const HistoryChange& c = m_history.changes[row];
        const HistorySeries& s = m_history.series[c.series];
        if (role == Qt::ForegroundRole && index.column() == Kind) {
            const bool dark = false;
            return c.kind == ChangeKind::Regression ? ChartStyle::verdictColor(Verdict::Slower, dark)
                : c.kind == ChangeKind::Improvement ? ChartStyle::verdictColor(Verdict::Faster, dark)
                                                    : ChartStyle::warningColor(dark);
        }
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
            return {};
        auto side = [&s](const Run& run, const QString& label, double level) -> QString {
            const QString at = run.observedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
            return (label.isEmpty() ? at : label + QStringLiteral(" · ") + at) + QStringLiteral(" · ")
                + formatHistoryValue(level, s.unit);
        };
        switch (index.column()) {
        case Kind:
            return QString(changeKindName(c.kind) + (c.change.confirmed ? QString() : QStringLiteral(" (newest run)")));
        case Ratio:
            return QStringLiteral("%1×").arg(c.change.ratio, 0, 'f', 3);
        case Series:
            return s.title;
        case Before:
            return side(*c.before, s.points[c.change.beforeIndex].label, c.change.before);
        case After:
            return side(*c.after, s.points[c.change.index].label, c.change.after);
        case Evidence:
            return c.change.evidence;
        default:
            return {};
        }
    }

private:
    History m_history;
};

RegressionsPanel::RegressionsPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new HistoryChangesModel(this))
    , m_view(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_threshold(new QDoubleSpinBox(this))
{
    m_threshold->setRange(0.5, 100);
    m_threshold->setDecimals(1);
    m_threshold->setSingleStep(1);
    m_threshold->setSuffix(QStringLiteral(" %"));
    m_threshold->setValue(5);
    m_threshold->setToolTip(QStringLiteral("The smallest step between levels that counts as a change"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(new QLabel(QStringLiteral("Threshold:"), this));
    top->addWidget(m_threshold);

    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    const int widths[HistoryChangesModel::ColumnCount] = { 150, 70, 420, 230, 230, 400 };
    for (int c = 0; c < HistoryChangesModel::ColumnCount; ++c)
        m_view->setColumnWidth(c, widths[c]);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);

    connect(m_threshold, &QDoubleSpinBox::valueChanged, this, [this] { rebuild(); });
    connect(m_view, &QTableView::clicked, this, [this](const QModelIndex& index) { activateRow(index.row()); });
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex& index) { activateRow(index.row()); });
    rebuild();
}

RegressionsPanel::~RegressionsPanel()
{
    for (QFuture<History>& future : m_inFlight)
        future.waitForFinished();
}

void RegressionsPanel::setRuns(const RunList& runs)
{
    m_runs = runs;
    rebuild();
}

void RegressionsPanel::setThreshold(double threshold)
{
    m_threshold->setValue(threshold * 100); // rebuilds through valueChanged
}

double RegressionsPanel::threshold() const
{
    return m_threshold->value() / 100;
}

const History& RegressionsPanel::history() const
{
    return m_model->history();
}

QString RegressionsPanel::summary() const
{
    return m_summary->text();
}

void RegressionsPanel::rebuild()
{
    HistoryOptions options;
    options.detection.threshold = threshold();
    const int generation = ++m_generation;
    m_building = true;
    m_summary->setText(QStringLiteral("Finding changes in %1 runs…").arg(m_runs.size()));
    auto* watcher = new QFutureWatcher<History>(this);
    connect(watcher, &QFutureWatcher<History>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == m_generation)
            showHistory(watcher->result());
    });
    const QFuture<History> future = QtConcurrent::run([runs = m_runs, options] { return buildHistory(runs, options); });
    m_inFlight.erase(
        std::remove_if(m_inFlight.begin(), m_inFlight.end(), [](const QFuture<History>& f) { return f.isFinished(); }),
        m_inFlight.end());
    m_inFlight << future;
    watcher->setFuture(future);
}

void RegressionsPanel::showHistory(History history)
{
    m_model->setHistory(std::move(history));
    m_building = false;
    const History& h = m_model->history();
    QString text = QStringLiteral("%1 regression(s) · %2 improvement(s) · %3 outlier(s) in %4 series")
                       .arg(h.count(ChangeKind::Regression))
                       .arg(h.count(ChangeKind::Improvement))
                       .arg(h.count(ChangeKind::Outlier))
                       .arg(h.series.size());
    if (!h.unplaceable.isEmpty())
        text += QStringLiteral(" · %1 unplaceable run(s)").arg(h.unplaceable.size());
    if (h.sameTimeRuns > 0)
        text += QStringLiteral(" · %1 run(s) at the same time as another").arg(h.sameTimeRuns);
    m_summary->setText(text);
    emit rebuilt();
}

RunList RegressionsPanel::seriesRuns(int row) const
{
    RunList runs;
    const History& h = m_model->history();
    if (row < 0 || row >= h.changes.size())
        return runs;
    for (const HistoryPoint& p : h.series[h.changes[row].series].points)
        runs << p.run;
    return runs;
}

void RegressionsPanel::activateRow(int row)
{
    const RunList runs = seriesRuns(row);
    if (!runs.isEmpty())
        emit seriesActivated(runs, m_model->history().series[m_model->history().changes[row].series].title);
}

RegressionsPanel* installRegressionsPanel(MainWindow& window)
{
    auto* panel = new RegressionsPanel(&window);
    auto* dock = new QDockWidget(QStringLiteral("Regressions"), &window);
    dock->setObjectName(QStringLiteral("regressionsDock"));
    dock->setWidget(panel);
    window.addPanel(dock, Qt::BottomDockWidgetArea);
    dock->hide(); // on request (View > Regressions), like Issues: by default the chart keeps the window's height
    RunSession* session = window.session();
    QObject::connect(
        session, &RunSession::runsChanged, panel, [panel, session] { panel->setRuns(session->model()->runs()); });
    QObject::connect(
        panel, &RegressionsPanel::seriesActivated, &window, [&window](const RunList& runs, const QString& series) {
            // Select the series' runs that the filter shows: the charts follow the selection.
            QSet<const Run*> wanted;
            for (const RunPtr& run : runs)
                wanted.insert(run.get());
            RunFilterProxy* proxy = window.session()->proxy();
            QItemSelection selection;
            int first = -1;
            const int columns = proxy->columnCount();
            for (int row = 0; row < proxy->rowCount(); ++row) {
                const RunPtr run = proxy->index(row, 0).data(RunTableModel::RunRole).value<RunPtr>();
                if (run && wanted.contains(run.get())) {
                    selection.select(proxy->index(row, 0), proxy->index(row, columns - 1));
                    first = first < 0 ? row : first;
                }
            }
            RunTableView* table = window.runTable();
            table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
            if (first >= 0)
                table->scrollTo(proxy->index(first, 0));
            window.chartPanel()->setKind(ChartKind::History);
            const int shown = int(selection.size() > 0 ? table->selectedCount() : 0);
            if (shown < runs.size())
                window.statusBar()->showMessage(QStringLiteral("%1: the filter hides %2 of its %3 runs")
                                                    .arg(series)
                                                    .arg(runs.size() - shown)
                                                    .arg(runs.size()),
                    10000);
        });
    return panel;
}

} // namespace kix
