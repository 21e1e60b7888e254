#include "model/comparisonreport.h"

#include "model/timescale.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace kix {

namespace {

using Json = nlohmann::ordered_json;

Json number(double v)
{
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

Json strings(const QStringList& list)
{
    Json array = Json::array();
    for (const QString& s : list)
        array.push_back(s.toStdString());
    return array;
}

Json runJson(const Run& run)
{
    Json j;
    j["externalId"] = run.externalId.toStdString();
    j["provider"] = run.provider.toStdString();
    j["gpu"] = run.gpuDisplayName().toStdString();
    j["medianNs"] = number(run.median); // the headline: a mean for nvbench runs, as headlineStatistic says
    j["headlineStatistic"] = run.headlineStatistic.toStdString();
    j["p20Ns"] = number(run.p20);
    j["p80Ns"] = number(run.p80);
    j["samples"] = run.samples.size();
    j["file"] = QString(run.file + run.pointer).toStdString();
    return j;
}

QString ratioText(double ratio)
{
    return std::isfinite(ratio) ? QString::number(ratio, 'f', 3) + QStringLiteral("×") : QStringLiteral("–");
}

QString pText(double p)
{
    return std::isfinite(p) ? QString::number(p, 'g', 3) : QString();
}

QByteArray csvField(const QString& field)
{
    QByteArray bytes = field.toUtf8();
    if (bytes.contains(',') || bytes.contains('"') || bytes.contains('\n') || bytes.contains('\r')) {
        bytes.replace("\"", "\"\"");
        bytes = '"' + bytes + '"';
    }
    return bytes;
}

QByteArray csvLine(const QStringList& fields)
{
    QByteArray line;
    for (int i = 0; i < fields.size(); ++i) {
        if (i > 0)
            line += ',';
        line += csvField(fields[i]);
    }
    return line + '\n';
}

QString csvNumber(double v)
{
    return std::isfinite(v) ? QString::number(v, 'g', 15) : QString();
}

// Left-aligned text columns separated by two spaces.
QByteArray alignedTable(const QVector<QStringList>& rows)
{
    QVector<int> widths;
    for (const QStringList& row : rows) {
        widths.resize(std::max(widths.size(), row.size()));
        for (int c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], int(row[c].size()));
    }
    QByteArray out;
    for (const QStringList& row : rows) {
        QString line;
        for (int c = 0; c < row.size(); ++c)
            line += c + 1 < row.size() ? row[c].leftJustified(widths[c] + 2) : row[c];
        out += line.trimmed().toUtf8() + '\n';
    }
    return out;
}

} // namespace

QByteArray comparisonToTable(const Comparison& c)
{
    QByteArray out
        = QStringLiteral("baseline: %1 · verdicts at α = %2\n\n").arg(c.baseline.describe()).arg(c.alpha).toUtf8();
    QVector<QStringList> rows;
    rows.append(
        { QStringLiteral("workload"), QStringLiteral("provider"), QStringLiteral("gpu"), QStringLiteral("baseline"),
            QStringLiteral("baseline median"), QStringLiteral("median"), QStringLiteral("speed-up"),
            QStringLiteral("verdict"), QStringLiteral("by"), QStringLiteral("p"), QStringLiteral("warnings") });
    for (const ComparisonPair& p : c.pairs) {
        const TimeScale scale = chooseTimeScale({ p.baseline->median, p.run->median });
        rows.append({ workloadDescription(*p.run), p.run->provider, p.run->gpuDisplayName(),
            p.baseline->provider + QStringLiteral(" · ") + p.baseline->gpuDisplayName(),
            scale.format(p.baseline->median), scale.format(p.run->median), ratioText(p.ratio), verdictName(p.verdict),
            verdictMethodName(p.method), pText(p.pValue), p.warnings.join(QStringLiteral("; ")) });
    }
    out += alignedTable(rows);

    out += "\n";
    QVector<QStringList> summary;
    summary.append({ QStringLiteral("provider"), QStringLiteral("pairs"), QStringLiteral("geomean speed-up"),
        QStringLiteral("faster"), QStringLiteral("slower"), QStringLiteral("same"), QStringLiteral("ambiguous"),
        QStringLiteral("warned"), QStringLiteral("gpus"), QStringLiteral("passes") });
    for (const ProviderSummary& s : c.providers) {
        summary.append({ s.provider, QString::number(s.pairs), ratioText(s.geomean), QString::number(s.faster),
            QString::number(s.slower), QString::number(s.same), QString::number(s.ambiguous), QString::number(s.warned),
            s.gpus.join(QStringLiteral(", ")), s.passes.join(QStringLiteral(", ")) });
    }
    out += alignedTable(summary);
    for (const QString& note : c.notes)
        out += QStringLiteral("note: %1\n").arg(note).toUtf8();
    return out;
}

QByteArray comparisonToCsv(const Comparison& c)
{
    QByteArray out = csvLine({ QStringLiteral("kernel"), QStringLiteral("pass"), QStringLiteral("workload"),
        QStringLiteral("dtype"), QStringLiteral("provider"), QStringLiteral("gpu"), QStringLiteral("baseline_provider"),
        QStringLiteral("baseline_gpu"), QStringLiteral("baseline_median_ns"), QStringLiteral("median_ns"),
        QStringLiteral("speedup"), QStringLiteral("verdict"), QStringLiteral("method"), QStringLiteral("p_value"),
        QStringLiteral("warnings"), QStringLiteral("notes"), QStringLiteral("run_id"), QStringLiteral("baseline_id") });
    for (const ComparisonPair& p : c.pairs) {
        const Run& r = *p.run;
        const Run& b = *p.baseline;
        out += csvLine({ r.kernel, r.pass, r.workloadSlug, r.dtype, r.provider, r.gpuDisplayName(), b.provider,
            b.gpuDisplayName(), csvNumber(b.median), csvNumber(r.median), csvNumber(p.ratio), verdictName(p.verdict),
            verdictMethodName(p.method), csvNumber(p.pValue), p.warnings.join(QStringLiteral("; ")),
            p.notes.join(QStringLiteral("; ")), r.externalId, b.externalId });
    }
    return out;
}

QByteArray comparisonToJson(const Comparison& c)
{
    Json root;
    Json baseline;
    if (c.baseline.isRun())
        baseline["run"] = c.baseline.run->externalId.toStdString();
    else
        baseline["providers"] = strings(c.baseline.providers);
    root["baseline"] = baseline;
    root["alpha"] = c.alpha;
    Json pairs = Json::array();
    for (const ComparisonPair& p : c.pairs) {
        Json j;
        j["kernel"] = p.run->kernel.toStdString();
        j["pass"] = p.run->pass.toStdString();
        j["workload"] = p.run->workloadSlug.toStdString();
        j["run"] = runJson(*p.run);
        j["baseline"] = runJson(*p.baseline);
        j["ratio"] = number(p.ratio);
        j["verdict"] = verdictName(p.verdict).toStdString();
        j["method"] = verdictMethodName(p.method).toStdString();
        j["pValue"] = number(p.pValue);
        j["warnings"] = strings(p.warnings);
        j["notes"] = strings(p.notes);
        pairs.push_back(std::move(j));
    }
    root["pairs"] = std::move(pairs);
    Json providers = Json::array();
    for (const ProviderSummary& s : c.providers) {
        Json j;
        j["provider"] = s.provider.toStdString();
        j["pairs"] = s.pairs;
        j["geomean"] = number(s.geomean);
        j["faster"] = s.faster;
        j["slower"] = s.slower;
        j["same"] = s.same;
        j["ambiguous"] = s.ambiguous;
        j["warned"] = s.warned;
        j["gpus"] = strings(s.gpus);
        j["passes"] = strings(s.passes);
        providers.push_back(std::move(j));
    }
    root["providers"] = std::move(providers);
    Json unpaired = Json::array();
    for (const RunPtr& run : c.unpaired)
        unpaired.push_back(run->externalId.toStdString());
    root["unpaired"] = std::move(unpaired);
    root["skippedNonLatency"] = c.skippedNonLatency;
    root["notes"] = strings(c.notes);
    return QByteArray::fromStdString(root.dump(2, ' ', false, Json::error_handler_t::replace)) + '\n';
}

} // namespace kix
