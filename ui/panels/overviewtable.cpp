// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/overviewtable.h"

#include "model/chartdata/overviewdata.h"
#include "ui/models/overviewmodel.h"

#include <QHeaderView>
#include <QLocale>
#include <QStyle>

#include <algorithm>

namespace kix {

namespace {

int widestLine(const QFontMetrics& metrics, const QString& text)
{
    int widest = 0;
    for (const QString& line : text.split(QLatin1Char('\n')))
        widest = std::max(widest, metrics.horizontalAdvance(line));
    return widest;
}

} // namespace

OverviewTable::OverviewTable(QWidget* parent)
    : QTableView(parent)
    , m_model(new OverviewModel(this))
{
    setObjectName(QStringLiteral("overviewTable"));
    setModel(m_model);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setWordWrap(false);
    setCornerButtonEnabled(false);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    setMouseTracking(true);
    horizontalHeader()->setSectionsClickable(true);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed); // sized to the labels: nothing to elide
    horizontalHeader()->setHighlightSections(false);
    verticalHeader()->setSectionsClickable(true);
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    verticalHeader()->setHighlightSections(false);
    setToolTip(QStringLiteral("Click a cell to filter to that kernel on that GPU, a kernel or a GPU to filter to it"));
    connect(this, &QTableView::clicked, this,
        [this](const QModelIndex& index) { request(index.data(OverviewModel::ClauseRole).toString()); });
    connect(this, &QTableView::activated, this,
        [this](const QModelIndex& index) { request(index.data(OverviewModel::ClauseRole).toString()); });
    connect(horizontalHeader(), &QHeaderView::sectionClicked, this, [this](int section) {
        request(m_model->headerData(section, Qt::Horizontal, OverviewModel::ClauseRole).toString());
    });
    connect(verticalHeader(), &QHeaderView::sectionClicked, this, [this](int section) {
        request(m_model->headerData(section, Qt::Vertical, OverviewModel::ClauseRole).toString());
    });
}

void OverviewTable::request(const QString& clause)
{
    if (!clause.isEmpty())
        emit filterRequested(clause);
}

void OverviewTable::setRuns(const RunList& runs)
{
    setOverview(buildOverview(runs));
}

void OverviewTable::setOverview(OverviewData data)
{
    m_model->setOverview(std::move(data));
    fitSections();
}

QString OverviewTable::summary() const
{
    const OverviewData& data = m_model->overview();
    if (data.isEmpty())
        return {};
    return QStringLiteral("Overview: %1 kernel%2 × %3 GPU%4, %5 runs (%6 failed); a cell counts runs · "
                          "implementations. Click a cell to filter to that kernel on that GPU, a kernel or a GPU to "
                          "filter to it; the other tabs chart the runs in scope.")
        .arg(data.kernels.size())
        .arg(data.kernels.size() == 1 ? QString() : QStringLiteral("s"))
        .arg(data.gpus.size())
        .arg(data.gpus.size() == 1 ? QString() : QStringLiteral("s"))
        .arg(QLocale().toString(data.total.runs))
        .arg(QLocale().toString(data.total.failed));
}

void OverviewTable::fitSections()
{
    // Sized from every label, not a sample (QHeaderView's own hint reads the first and last 100 sections only):
    // bold metrics for all, as the totals are bold. The margin is the style's, on both sides, plus a little air.
    QFont boldFont = font();
    boldFont.setBold(true);
    const QFontMetrics bold(boldFont);
    QFont headerBold = horizontalHeader()->font();
    headerBold.setBold(true);
    const QFontMetrics header(headerBold);
    const int margin = 2 * style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, this) + 12;
    const int cellMargin = 2 * style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, this) + 16;

    // Rows: one line each, two or more for a long name (wrapped by the model).
    const int rowHeight = std::max(bold.height(), header.height()) + 8;
    verticalHeader()->setDefaultSectionSize(rowHeight);
    int labelWidth = 0;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QString label = m_model->headerData(row, Qt::Vertical, Qt::DisplayRole).toString();
        labelWidth = std::max(labelWidth, widestLine(header, label));
        const int lines = int(label.count(QLatin1Char('\n'))) + 1;
        if (lines > 1)
            verticalHeader()->resizeSection(row, lines * header.lineSpacing() + 8);
    }
    verticalHeader()->setMinimumWidth(labelWidth + margin);

    int lines = 1;
    for (int column = 0; column < m_model->columnCount(); ++column) {
        const QString label = m_model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        lines = std::max<int>(lines, int(label.count(QLatin1Char('\n'))) + 1);
        int width = widestLine(header, label) + margin;
        for (int row = 0; row < m_model->rowCount(); ++row)
            width = std::max(width,
                bold.horizontalAdvance(m_model->index(row, column).data(Qt::DisplayRole).toString()) + cellMargin);
        setColumnWidth(column, width);
    }
    horizontalHeader()->setMinimumHeight(lines * header.lineSpacing() + margin);
}

} // namespace kix
