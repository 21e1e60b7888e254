// SPDX-License-Identifier: Apache-2.0
#include "model/history/historyreport.h"

#include "model/chartdata/timescale.h"
#include "model/write/csvwriter.h"
#include "model/write/jsonnumber.h"
#include "model/write/texttable.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace kix {

namespace {

using Json = nlohmann::ordered_json;

QString timeText(const QDateTime& at)
{
    return at.isValid() ? at.toUTC().toString(Qt::ISODateWithMs) : QString();
}

Json side(const Run& run, const QString& label, double level)
{
    Json j;
    j["observedAt"] = timeText(run.observedAt).toStdString();
    j["label"] = label.toStdString();
    j["median"] = jsonNumber(run.median);
    j["level"] = jsonNumber(level);
    j["externalId"] = run.externalId.toStdString();
    return j;
}

QString sideText(const Run& run, const QString& label)
{
    const QString at = run.observedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    return label.isEmpty() ? at : label + QStringLiteral(" (") + at + QLatin1Char(')');
}

} // namespace

QString formatHistoryValue(double value, const QString& unit)
{
    if (!std::isfinite(value))
        return QStringLiteral("–");
    if (unit == QLatin1String("ns"))
        return chooseTimeScale({ value }).format(value);
    return QString::number(value, 'g', 4) + QLatin1Char(' ') + unit;
}

QByteArray historyToTable(const History& history, double threshold)
{
    const QStringList header { QStringLiteral("kind"), QStringLiteral("ratio"), QStringLiteral("before"),
        QStringLiteral("after"), QStringLiteral("from"), QStringLiteral("to"), QStringLiteral("series"),
        QStringLiteral("evidence") };
    QVector<QStringList> rows;
    for (const HistoryChange& c : history.changes) {
        const HistorySeries& s = history.series[c.series];
        rows.append({ changeKindName(c.kind), QString::number(c.change.ratio, 'f', 3) + QStringLiteral("×"),
            formatHistoryValue(c.change.before, s.unit), formatHistoryValue(c.change.after, s.unit),
            sideText(*c.before, s.points[c.change.beforeIndex].label),
            sideText(*c.after, s.points[c.change.index].label), s.title, c.change.evidence });
    }
    QString out;
    if (!rows.isEmpty())
        out += QString::fromUtf8(alignedRows(QVector<QStringList> { header } + rows));
    out += QStringLiteral("%1 series, %2 regression(s), %3 improvement(s), %4 outlier(s) at a %5 % threshold\n")
               .arg(history.series.size())
               .arg(history.count(ChangeKind::Regression))
               .arg(history.count(ChangeKind::Improvement))
               .arg(history.count(ChangeKind::Outlier))
               .arg(threshold * 100, 0, 'g', 3);
    for (const RunPtr& run : history.unplaceable)
        out += QStringLiteral("unplaceable: %1 (%2): no usable observedAt\n")
                   .arg(run->externalId.isEmpty() ? run->name : run->externalId, run->file + run->pointer);
    for (const QString& note : history.notes)
        out += QStringLiteral("note: ") + note + QLatin1Char('\n');
    return out.toUtf8();
}

QByteArray historyToCsv(const History& history)
{
    QByteArray out = "kind,ratio,kernel,pass,provider,gpu,workload,metric,protocol_family,before_observed_at,"
                     "before_label,before_median,before_level,after_observed_at,after_label,after_median,after_level,"
                     "runs_before,runs_after,confirmed,evidence\n";
    for (const HistoryChange& c : history.changes) {
        const HistorySeries& s = history.series[c.series];
        const QStringList fields { changeKindName(c.kind), QString::number(c.change.ratio, 'g', 6), s.key.kernel,
            s.key.pass, s.key.provider, s.key.gpu, s.key.workload, s.key.metric, s.key.protocolFamily,
            timeText(c.before->observedAt), s.points[c.change.beforeIndex].label,
            QString::number(c.before->median, 'g', 10), QString::number(c.change.before, 'g', 10),
            timeText(c.after->observedAt), s.points[c.change.index].label, QString::number(c.after->median, 'g', 10),
            QString::number(c.change.after, 'g', 10), QString::number(c.change.runsBefore),
            QString::number(c.change.runsAfter), c.change.confirmed ? QStringLiteral("true") : QStringLiteral("false"),
            c.change.evidence };
        for (int i = 0; i < fields.size(); ++i)
            out += (i ? "," : "") + csvField(fields[i]);
        out += '\n';
    }
    return out;
}

QByteArray historyToJson(const History& history, double threshold)
{
    Json root;
    root["threshold"] = threshold;
    root["series"] = history.series.size();
    Json changes = Json::array();
    for (const HistoryChange& c : history.changes) {
        const HistorySeries& s = history.series[c.series];
        Json j;
        j["kernel"] = s.key.kernel.toStdString();
        j["pass"] = s.key.pass.toStdString();
        j["provider"] = s.key.provider.toStdString();
        j["gpu"] = s.key.gpu.toStdString();
        j["workload"] = s.key.workload.toStdString();
        j["metric"] = s.key.metric.toStdString();
        j["protocolFamily"] = s.key.protocolFamily.toStdString();
        j["unit"] = s.unit.toStdString();
        j["series"] = s.title.toStdString();
        j["kind"] = changeKindName(c.kind).toStdString();
        j["ratio"] = jsonNumber(c.change.ratio);
        j["before"] = side(*c.before, s.points[c.change.beforeIndex].label, c.change.before);
        j["after"] = side(*c.after, s.points[c.change.index].label, c.change.after);
        j["runsBefore"] = c.change.runsBefore;
        j["runsAfter"] = c.change.runsAfter;
        j["confirmed"] = c.change.confirmed;
        j["pValue"] = jsonNumber(c.change.pValue);
        j["evidence"] = c.change.evidence.toStdString();
        changes.push_back(std::move(j));
    }
    root["changes"] = std::move(changes);
    Json unplaceable = Json::array();
    for (const RunPtr& run : history.unplaceable)
        unplaceable.push_back({ { "externalId", run->externalId.toStdString() },
            { "file", QString(run->file + run->pointer).toStdString() }, { "reason", "no usable observedAt" } });
    root["unplaceable"] = std::move(unplaceable);
    Json sameTime = Json::array();
    for (const HistorySeries& s : history.series) {
        for (const HistoryPoint& p : s.points) {
            if (p.sameTime)
                sameTime.push_back(
                    { { "series", s.title.toStdString() }, { "externalId", p.run->externalId.toStdString() },
                        { "observedAt", timeText(p.run->observedAt).toStdString() } });
        }
    }
    root["sameTime"] = std::move(sameTime);
    Json notes = Json::array();
    for (const QString& n : history.notes)
        notes.push_back(n.toStdString());
    root["notes"] = std::move(notes);
    return QByteArray::fromStdString(root.dump(2)) + '\n';
}

} // namespace kix
