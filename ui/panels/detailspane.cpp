// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/detailspane.h"

#include "model/chartdata/timescale.h"
#include "model/filter/runtablemodel.h"

#include <QAction>
#include <QClipboard>
#include <QColor>
#include <QEvent>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace kix {

namespace {

QTreeWidgetItem* section(QTreeWidget* tree, const QString& title)
{
    auto* item = new QTreeWidgetItem(tree, { title });
    QFont font = item->font(0);
    font.setBold(true);
    item->setFont(0, font);
    item->setFirstColumnSpanned(true);
    return item;
}

// QTreeView asks its delegate for a row's height without the column's width, so wrapped text would get one line:
// this delegate measures each cell at its column's width.
class WrappingDelegate : public QStyledItemDelegate
{
public:
    explicit WrappingDelegate(QTreeView* view)
        : QStyledItemDelegate(view)
        , m_view(view)
    {
    }
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QStyleOptionViewItem o(option);
        int width = m_view->header()->sectionSize(index.column());
        if (index.column() == 0)
            for (QModelIndex p = index.parent(); p.isValid(); p = p.parent())
                width -= m_view->indentation();
        o.rect = QRect(0, 0, std::max(20, width), std::max(1, option.rect.height()));
        return QStyledItemDelegate::sizeHint(o, index);
    }

protected:
    // What is drawn (and measured) may break after _ / - . : = , too; the item keeps the exact text.
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        option->text = DetailsPane::breakable(option->text);
    }

private:
    QTreeView* m_view;
};

constexpr int CopyRole = Qt::UserRole + 1; // the text "Copy" puts on the clipboard, when not the shown text

QTreeWidgetItem* field(QTreeWidgetItem* parent, const QString& key, const QString& value)
{
    auto* item = new QTreeWidgetItem(parent, { key, value.isEmpty() ? QStringLiteral("–") : value });
    item->setToolTip(0, key);
    item->setToolTip(1, value);
    return item;
}

QString number(double v, const QString& unit)
{
    return std::isnan(v) ? QString() : QStringLiteral("%1 %2").arg(v, 0, 'g', 12).arg(unit);
}

} // namespace

DetailsPane::DetailsPane(QWidget* parent)
    : QWidget(parent)
    , m_header(new QLabel(this))
    , m_comparability(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_fields(new QTreeWidget(this))
    , m_json(new QPlainTextEdit(this))
    , m_copyAllButton(new QToolButton(this))
    , m_copy(new QAction(QStringLiteral("Copy value"), this))
    , m_copyAll(new QAction(QStringLiteral("Copy all details"), this))
{
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_comparability->setWordWrap(true);
    m_comparability->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_comparability->setFrameShape(QFrame::StyledPanel);
    m_comparability->setMargin(6);
    m_fields->setColumnCount(2);
    m_fields->setHeaderLabels({ QStringLiteral("Field"), QStringLiteral("Value") });
    // The field names take what they need up to 40% of the width (they wrap too); the values get the rest.
    m_fields->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_fields->header()->setStretchLastSection(true);
    m_fields->viewport()->installEventFilter(this);
    // Wrapped values make rows of different heights; what cannot wrap is elided in the middle, where a digest or a
    // path differs least, and its tooltip has it whole.
    m_fields->setUniformRowHeights(false);
    m_fields->setWordWrap(true);
    m_fields->setTextElideMode(Qt::ElideMiddle);
    m_fields->setItemDelegate(new WrappingDelegate(m_fields));
    m_fields->setIndentation(12); // a narrow dock: every pixel to the names and values
    // Row heights follow the columns' widths (QTreeView itself only repaints when a column is resized).
    connect(m_fields->header(), &QHeaderView::sectionResized, m_fields, [this] { m_fields->doItemsLayout(); });
    m_fields->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_fields->setContextMenuPolicy(Qt::CustomContextMenu);
    m_copy->setShortcut(QKeySequence::Copy);
    m_copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_copy->setToolTip(QStringLiteral("Copy the selected value (several rows: field and value, one a line)"));
    m_copyAll->setToolTip(QStringLiteral("Copy every field of the run as text"));
    m_fields->addAction(m_copy);
    connect(m_copy, &QAction::triggered, this, &DetailsPane::copySelection);
    connect(m_copyAll, &QAction::triggered, this, &DetailsPane::copyAll);
    connect(m_fields, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        if (QTreeWidgetItem* item = m_fields->itemAt(at); item && !item->isSelected())
            m_fields->setCurrentItem(item);
        QMenu menu(this);
        menu.addAction(m_copy);
        menu.addAction(m_copyAll);
        menu.exec(m_fields->viewport()->mapToGlobal(at));
    });
    m_copyAllButton->setDefaultAction(m_copyAll);
    m_copyAllButton->setText(QStringLiteral("Copy all"));
    m_copyAllButton->setObjectName(QStringLiteral("copyAllDetails"));
    m_copyAllButton->setAutoRaise(true);
    m_json->setReadOnly(true);
    m_json->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_json->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_tabs->addTab(m_fields, QStringLiteral("Fields"));
    m_tabs->addTab(m_json, QStringLiteral("JSON"));
    m_tabs->setCornerWidget(m_copyAllButton, Qt::TopRightCorner);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_header);
    layout->addWidget(m_comparability);
    layout->addWidget(m_tabs, 1);
    setRun(nullptr);
}

QString DetailsPane::comparabilityText() const
{
    return m_comparability->text();
}

void DetailsPane::clearRun(const QString& hint)
{
    setRun(nullptr);
    m_comparability->setText(hint);
}

QString DetailsPane::headerText() const
{
    return m_header->text();
}

void DetailsPane::fitFieldColumn()
{
    m_fields->resizeColumnToContents(0);
    const int cap = std::max(90, m_fields->viewport()->width() * 9 / 20);
    if (m_fields->header()->sectionSize(0) > cap)
        m_fields->header()->resizeSection(0, cap);
}

bool DetailsPane::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_fields->viewport() && event->type() == QEvent::Resize)
        fitFieldColumn();
    return QWidget::eventFilter(watched, event);
}

QString DetailsPane::breakable(const QString& text)
{
    static const QString after = QStringLiteral("_/-.:=,");
    QString out;
    out.reserve(text.size() + text.size() / 4);
    for (const QChar c : text) {
        out += c;
        if (after.contains(c))
            out += QChar(0x200B); // zero-width space: a line may break here
    }
    return out;
}

QString DetailsPane::copyText(const QTreeWidgetItem* item)
{
    if (!item)
        return {};
    if (item->columnCount() < 2 || item->isFirstColumnSpanned())
        return item->text(0);
    const QVariant exact = item->data(1, CopyRole);
    return exact.isValid() ? exact.toString() : item->toolTip(1);
}

QString DetailsPane::detailsText() const
{
    if (!m_run)
        return {};
    QStringList lines;
    lines << (m_run->title.isEmpty() ? m_run->name : m_run->title);
    if (!m_run->externalId.isEmpty())
        lines << m_run->externalId;
    lines << m_comparability->text();
    for (int s = 0; s < m_fields->topLevelItemCount(); ++s) {
        const QTreeWidgetItem* section = m_fields->topLevelItem(s);
        lines << QString() << section->text(0);
        for (int f = 0; f < section->childCount(); ++f) {
            const QTreeWidgetItem* item = section->child(f);
            lines << QStringLiteral("  %1: %2").arg(item->text(0), item->toolTip(1));
        }
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void DetailsPane::copySelection()
{
    QList<QTreeWidgetItem*> selected = m_fields->selectedItems();
    if (selected.size() <= 1) {
        QTreeWidgetItem* item = selected.isEmpty() ? m_fields->currentItem() : selected.front();
        if (item)
            QGuiApplication::clipboard()->setText(copyText(item));
        return;
    }
    QStringList lines; // in the tree's order, not the order of clicks
    for (QTreeWidgetItemIterator it(m_fields); *it; ++it) {
        if (selected.contains(*it))
            lines << ((*it)->isFirstColumnSpanned() ? (*it)->text(0)
                                                    : (*it)->text(0) + QLatin1Char('\t') + copyText(*it));
    }
    QGuiApplication::clipboard()->setText(lines.join(QLatin1Char('\n')));
}

void DetailsPane::copyAll()
{
    QGuiApplication::clipboard()->setText(detailsText());
}

QString DetailsPane::prettyJson(const std::string& raw)
{
    const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(raw, nullptr, false);
    if (doc.is_discarded())
        return QString::fromStdString(raw);
    return QString::fromStdString(doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

void DetailsPane::setRun(const RunPtr& run)
{
    m_run = run;
    m_fields->clear();
    m_copyAll->setEnabled(bool(run));
    if (!run) {
        m_header->setText(QStringLiteral("No run selected."));
        m_comparability->setText(QStringLiteral("Select a run to see its fields, digests, protocol notes and JSON."));
        m_json->clear();
        return;
    }
    const Run& r = *run;
    m_header->setText(QStringLiteral("<b>%1</b><br>%2")
                          .arg((r.title.isEmpty() ? r.name : r.title).toHtmlEscaped(), r.externalId.toHtmlEscaped()));
    m_comparability->setText(
        QStringLiteral("Comparability (%1): %2")
            .arg(r.protocolFamily.isEmpty() ? QStringLiteral("no family") : r.protocolFamily,
                r.protocolNotes.isEmpty() ? QStringLiteral("the protocol states none.") : r.protocolNotes));

    addRunFields(r);
    addFigureFields(r);
    addDigestFields(r);
    addProtocolAndEnvironmentFields(r);
    m_fields->expandAll();
    fitFieldColumn();
    QString unread; // a run read back from its file, which changed since it was loaded: say so
    m_json->setPlainText(r.raw.load(&unread) ? prettyJson(r.raw) : unread);
}

// The run's identity and its workload.
void DetailsPane::addRunFields(const Run& r)
{
    QTreeWidgetItem* s = section(m_fields, QStringLiteral("Run"));
    field(s, QStringLiteral("kernel"), r.kernel);
    if (!r.links().operationTitle.isEmpty())
        field(s, QStringLiteral("operation"), r.links().operationTitle);
    if (!r.links().operationAliases.isEmpty())
        field(s, QStringLiteral("also known as"), r.links().operationAliases.join(QStringLiteral(", ")));
    field(s, QStringLiteral("pass"), r.pass);
    field(s, QStringLiteral("provider"), r.provider);
    if (!r.links().implementationTitle.isEmpty())
        field(s, QStringLiteral("implementation"), r.links().implementationTitle);
    if (!r.links().authors.isEmpty())
        field(s, QStringLiteral("authors"), r.links().authors.join(QStringLiteral(", ")));
    if (!r.links().project.isEmpty())
        field(s, QStringLiteral("project"), r.links().project);
    field(s, QStringLiteral("status"),
        r.failed() ? r.status + QStringLiteral(" (failed: shown, never ranked or charted)") : r.status);
    field(s, QStringLiteral("observed at"),
        r.observedAt.isValid() ? r.observedAt.toString(Qt::ISODateWithMs) : QString());
    field(s, QStringLiteral("source"), r.source);
    field(s, QStringLiteral("name"), r.name);
    field(s, QStringLiteral("title"), r.title);
    field(s, QStringLiteral("external id"), r.externalId);
    field(s, QStringLiteral("api version"), r.apiVersion);
    field(s, QStringLiteral("file"), r.file + r.pointer);

    s = section(m_fields, QStringLiteral("Workload"));
    if (!r.links().workloadTitle.isEmpty())
        field(s, QStringLiteral("title"), r.links().workloadTitle);
    field(s, QStringLiteral("slug"), r.workloadSlug);
    for (const WorkloadParam& p : r.workload)
        field(s, p.key, p.value);
    field(s, QStringLiteral("dtype"), r.dtype);
}

// The headline metric's figures, the bandwidth and the other measurements.
void DetailsPane::addFigureFields(const Run& r)
{
    // One unit per figure: every figure of the headline metric as the run table and the chart's read-out show it
    // (formatValue), the exact value in the tooltip.
    QTreeWidgetItem* s = nullptr;
    const TimeScale scale = runTimeScale(r, r.median);
    auto value = [&](double v) -> QString { return formatValue(r, v); };
    auto timed = [&](const QString& key, double v) {
        QTreeWidgetItem* item = field(s, key, value(v));
        if (!std::isnan(v) && value(v) != number(v, r.unit)) {
            item->setToolTip(1, QStringLiteral("%1 (%2)").arg(value(v), number(v, r.unit)));
            item->setData(1, CopyRole, value(v)); // the figure as shown
        }
    };
    s = section(m_fields,
        r.isLatency()
            ? QStringLiteral("Latency (%1)").arg(scale.unit)
            : QStringLiteral("%1 (%2)").arg(r.metricName().left(1).toUpper() + r.metricName().mid(1), figureUnit(r)));
    timed(r.headlineStatistic, r.median);
    timed(QStringLiteral("p20"), r.p20);
    timed(QStringLiteral("p80"), r.p80);
    const double spread = r.spread();
    field(s, QStringLiteral("spread (p80−p20)/median"),
        std::isnan(spread) ? QString()
                           : QString::number(spread * 100, 'f', 2) + QLatin1Char('%')
                + (r.isNoisy() ? QStringLiteral(" ⚠ noisy (over %1%)").arg(Run::noisySpread * 100, 0, 'f', 0)
                               : QString()));
    for (const Measurement& m : r.statistics) {
        if (m.unit == r.unit)
            timed(m.statistic, m.value);
        else
            field(s, m.statistic, number(m.value, m.unit));
    }
    if (!r.samples.empty()) {
        const auto [lo, hi] = std::minmax_element(r.samples.begin(), r.samples.end());
        field(s, QStringLiteral("samples"),
            QStringLiteral("%1 (min %2, max %3)").arg(r.samples.size()).arg(value(*lo), value(*hi)));
    }
    const double gbs = r.achievedGBs();
    if (std::isfinite(gbs)) {
        s = section(m_fields, QStringLiteral("Bandwidth"));
        field(s, QStringLiteral("achieved"), QStringLiteral("%1 GB/s").arg(gbs, 0, 'f', 1));
        const double copy = r.measurementValue(QStringLiteral("copy_bandwidth"));
        if (std::isfinite(copy))
            field(s, QStringLiteral("copy bandwidth (same session)"), QStringLiteral("%1 GB/s").arg(copy, 0, 'f', 1));
        const double fraction = r.bandwidthFraction();
        if (std::isfinite(fraction))
            field(s, QStringLiteral("of copy bandwidth"), QStringLiteral("%1%").arg(fraction * 100, 0, 'f', 1));
        const double bytes = r.measurementValue(QStringLiteral("bytes_moved"));
        if (std::isfinite(bytes))
            field(s, QStringLiteral("bytes moved (at least)"), QStringLiteral("%1 MB").arg(bytes / 1e6, 0, 'f', 2));
    }
    if (!r.measurements.isEmpty()) {
        s = section(m_fields, QStringLiteral("Other measurements"));
        for (const Measurement& m : r.measurements)
            field(s, m.metric + QLatin1Char(' ') + m.statistic, number(m.value, m.unit));
    }
}

// Each digest with what kix found: verified against the resource the document carries, or not.
void DetailsPane::addDigestFields(const Run& r)
{
    QTreeWidgetItem* s = section(m_fields, QStringLiteral("Digests"));
    auto digest = [&](const QString& key, const QString& value, DigestCheck check) {
        if (value.isEmpty()) {
            field(s, key, QString());
            return;
        }
        QTreeWidgetItem* item = field(s, key, QStringLiteral("%1 — %2").arg(value, Run::describe(check, r.dialect)));
        item->setData(1, CopyRole, value); // the digest alone, ready to paste
        if (check == DigestCheck::Mismatch)
            item->setForeground(1, QColor(0xb0, 0x30, 0x20));
    };
    digest(QStringLiteral("protocol"), r.protocolDigest, r.protocolCheck);
    digest(QStringLiteral("workload"), r.workloadDigest, r.workloadCheck);
    digest(QStringLiteral("environment"), r.environmentDigest, r.environmentCheck);
    digest(QStringLiteral("implementation"), r.implementationDigest, r.implementationCheck);
    if (!r.operationDigest.isEmpty())
        digest(QStringLiteral("operation"), r.operationDigest, r.operationCheck);
    field(s, QStringLiteral("run (its identity)"), r.runDigest);
    field(s, QStringLiteral("comparison key (the cohort)"),
        r.links().comparisonKey.isEmpty()
            ? QStringLiteral("none: family-level cohort (no %1)").arg(r.strictKeyMissing().join(QStringLiteral(", ")))
            : r.links().comparisonKey.toString());
    if (r.dialect != Dialect::Format)
        field(s, QStringLiteral("dialect"), r.dialectNote());
}

// The protocol, the environment and the labels.
void DetailsPane::addProtocolAndEnvironmentFields(const Run& r)
{
    QTreeWidgetItem* s = section(m_fields, QStringLiteral("Protocol"));
    field(s, QStringLiteral("family"), r.protocolFamily);
    field(s, QStringLiteral("timer"), r.links().timer);
    field(s, QStringLiteral("comparability notes"), r.protocolNotes);

    s = section(m_fields, QStringLiteral("Environment"));
    field(s, QStringLiteral("GPU"), r.gpuProduct);
    field(s, QStringLiteral("vendor"), r.gpuVendor);
    field(s, QStringLiteral("architecture"), r.gpuArchitecture);
    field(s, QStringLiteral("GPU slug"), r.gpuSlug);
    for (const KeyValue& kv : r.software)
        field(s, kv.key, kv.value);

    if (!r.labels.isEmpty()) {
        s = section(m_fields, QStringLiteral("Labels"));
        for (const KeyValue& kv : r.labels)
            field(s, kv.key, kv.value);
    }
}

} // namespace kix
