// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/detailspane.h"

#include "model/chartdata/timescale.h"
#include "model/filter/runtablemodel.h"

#include <QColor>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTreeWidget>
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

void field(QTreeWidgetItem* parent, const QString& key, const QString& value)
{
    auto* item = new QTreeWidgetItem(parent, { key, value.isEmpty() ? QStringLiteral("–") : value });
    item->setToolTip(1, value);
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
{
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_comparability->setWordWrap(true);
    m_comparability->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_comparability->setFrameShape(QFrame::StyledPanel);
    m_comparability->setMargin(6);
    m_fields->setColumnCount(2);
    m_fields->setHeaderLabels({ QStringLiteral("Field"), QStringLiteral("Value") });
    m_fields->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_fields->setUniformRowHeights(true);
    m_fields->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_json->setReadOnly(true);
    m_json->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_json->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_tabs->addTab(m_fields, QStringLiteral("Fields"));
    m_tabs->addTab(m_json, QStringLiteral("JSON"));

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

    QTreeWidgetItem* s = section(m_fields, QStringLiteral("Run"));
    field(s, QStringLiteral("kernel"), r.kernel);
    field(s, QStringLiteral("pass"), r.pass);
    field(s, QStringLiteral("provider"), r.provider);
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
    field(s, QStringLiteral("slug"), r.workloadSlug);
    for (const WorkloadParam& p : r.workload)
        field(s, p.key, p.value);
    field(s, QStringLiteral("dtype"), r.dtype);

    // One unit per figure: every latency of the run in the unit its median reads best in, the exact ns in the
    // tooltip.
    const TimeScale scale = r.isLatency() ? chooseTimeScale({ r.median }) : TimeScale { r.unit, 1 };
    auto value = [&](double v) -> QString {
        if (std::isnan(v))
            return {};
        return r.isLatency() ? scale.format(v) : number(v, r.unit);
    };
    auto timed = [&](const QString& key, double v) {
        field(s, key, value(v));
        if (r.isLatency() && !std::isnan(v) && s->childCount() > 0)
            s->child(s->childCount() - 1)->setToolTip(1, number(v, r.unit));
    };
    s = section(m_fields,
        r.isLatency()
            ? QStringLiteral("Latency (%1)").arg(scale.unit)
            : QStringLiteral("%1 (%2)").arg(r.metricName().left(1).toUpper() + r.metricName().mid(1), r.unit));
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

    // Each digest with what kix found: verified against the resource the document carries, or not.
    s = section(m_fields, QStringLiteral("Digests"));
    auto digest = [&](const QString& key, const QString& value, DigestCheck check) {
        if (value.isEmpty()) {
            field(s, key, QString());
            return;
        }
        field(s, key, QStringLiteral("%1 — %2").arg(value, Run::describe(check)));
        if (check == DigestCheck::Mismatch)
            s->child(s->childCount() - 1)->setForeground(1, QColor(0xb0, 0x30, 0x20));
    };
    digest(QStringLiteral("protocol"), r.protocolDigest, r.protocolCheck);
    digest(QStringLiteral("workload"), r.workloadDigest, r.workloadCheck);
    digest(QStringLiteral("environment"), r.environmentDigest, r.environmentCheck);
    digest(QStringLiteral("implementation"), r.implementationDigest, r.implementationCheck);
    if (!r.operationDigest.isEmpty())
        digest(QStringLiteral("operation"), r.operationDigest, r.operationCheck);
    field(s, QStringLiteral("run (its identity)"), r.runDigest);
    if (r.writtenByKix010)
        field(s, QStringLiteral("dialect"),
            QStringLiteral("written by kix 0.1.0 (not v1alpha1 as the format defines it)"));

    s = section(m_fields, QStringLiteral("Protocol"));
    field(s, QStringLiteral("family"), r.protocolFamily);
    field(s, QStringLiteral("timer"), r.timer);
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
    m_fields->expandAll();
    m_json->setPlainText(prettyJson(r.raw));
}

} // namespace kix
