// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/regressionspanel.h"

#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "model/history/historyreport.h"
#include "model/jobs/pools.h"
#include "ui/charts/chartstyle.h"
#include "ui/disposal.h"
#include "ui/models/historychangesmodel.h"
#include "ui/panels/chartpanel.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include <QAbstractTableModel>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelection>
#include <QLabel>
#include <QLineEdit>
#include <QSet>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace kix {

RegressionsPanel::RegressionsPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new HistoryChangesModel(this))
    , m_proxy(new HistoryChangesProxy(this))
    , m_view(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_threshold(new QDoubleSpinBox(this))
    , m_kinds(new QComboBox(this))
    , m_filter(new QLineEdit(this))
{
    m_threshold->setRange(0.5, 100);
    m_threshold->setDecimals(1);
    m_threshold->setSingleStep(1);
    m_threshold->setSuffix(QStringLiteral(" %"));
    m_threshold->setValue(5);
    m_threshold->setToolTip(QStringLiteral("The smallest step between levels that counts as a change"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_kinds->addItems({ QStringLiteral("All kinds"), QStringLiteral("Regressions"), QStringLiteral("Improvements"),
        QStringLiteral("Outliers") });
    m_kinds->setToolTip(QStringLiteral("Show the changes of one kind"));
    m_filter->setPlaceholderText(QStringLiteral("Filter changes…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(QStringLiteral("Filter changes"));
    m_filter->setMinimumWidth(80);
    m_summary->setWordWrap(true); // a narrow dock keeps its controls in view
    auto* top = new QHBoxLayout;
    top->addWidget(m_kinds);
    top->addWidget(m_filter, 1);
    top->addWidget(new QLabel(QStringLiteral("Threshold:"), this));
    top->addWidget(m_threshold);

    m_proxy->setSourceModel(m_model);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(HistoryChangesModel::Kind, Qt::AscendingOrder); // regressions first, each largest first
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
    layout->addWidget(m_summary);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);

    connect(m_threshold, &QDoubleSpinBox::valueChanged, this, [this] { rebuild(); });
    connect(m_kinds, &QComboBox::currentIndexChanged, this,
        [this](int index) { m_proxy->setKinds(HistoryChangesProxy::Kinds(index)); });
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &RegressionsPanel::updateShown);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &RegressionsPanel::updateShown);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &RegressionsPanel::updateShown);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &RegressionsPanel::updateShown);
    connect(m_view, &QTableView::clicked, this, [this](const QModelIndex& index) { activateRow(index.row()); });
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex& index) { activateRow(index.row()); });
    rebuild();
}

RegressionsPanel::~RegressionsPanel()
{
    m_builds.waitForDone(); // no build outlives the panel
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
    m_builds.cancel(); // the build in flight, if any, is stale
    m_building = true;
    m_summary->setText(QStringLiteral("Finding changes in %1 runs…").arg(m_runs.size()));
    // One build at a time: while runs load in chunks, each chunk asks again, and a history of all the runs so far
    // per chunk would keep pool threads (the filter's too) busy with results that are stale before they end. The
    // newest state is built once the running build ends.
    if (m_builds.running() > 0) {
        m_rebuildQueued = true;
        return;
    }
    startBuild();
}

void RegressionsPanel::startBuild()
{
    m_rebuildQueued = false;
    ++m_buildsStarted;
    HistoryOptions options;
    options.detection.threshold = threshold();
    m_builds.run(
        workerPool(), [runs = m_runs, options](const CancelToken&) { return buildHistory(runs, options); },
        [this](History&& history) { showHistory(std::move(history)); },
        [this](History&& history) {
            disposeOffThread(std::move(history)); // stale: the history of a million runs takes long to free
            if (m_rebuildQueued)
                startBuild();
        });
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
    m_summaryText = text;
    updateShown();
    emit rebuilt();
}

void RegressionsPanel::updateShown()
{
    if (m_building)
        return;
    const bool filtered = m_proxy->kinds() != HistoryChangesProxy::Kinds::All || !m_filter->text().isEmpty();
    m_summary->setText(filtered
            ? m_summaryText + QStringLiteral(" · %1 of %2 rows shown").arg(m_proxy->rowCount()).arg(m_model->rowCount())
            : m_summaryText);
}

int RegressionsPanel::sourceRow(int viewRow) const
{
    return m_proxy->mapToSource(m_proxy->index(viewRow, 0)).row();
}

RunList RegressionsPanel::seriesRuns(int viewRow) const
{
    const int row = sourceRow(viewRow);
    RunList runs;
    const History& h = m_model->history();
    if (row < 0 || row >= h.changes.size())
        return runs;
    for (const HistoryPoint& p : h.series[h.changes[row].series].points)
        runs << p.run;
    return runs;
}

void RegressionsPanel::activateRow(int viewRow)
{
    const int row = sourceRow(viewRow);
    const RunList runs = seriesRuns(viewRow);
    if (!runs.isEmpty())
        emit seriesActivated(runs, m_model->history().series[m_model->history().changes[row].series].title);
}

} // namespace kix
