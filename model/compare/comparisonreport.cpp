// SPDX-License-Identifier: Apache-2.0
#include "model/compare/comparisonreport.h"

#include "model/chartdata/timescale.h"
#include "model/write/csvwriter.h"
#include "model/write/jsonnumber.h"
#include "model/write/texttable.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace kix {

namespace {

using Json = nlohmann::ordered_json;

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
    j["medianNs"] = jsonNumber(run.median); // the headline: a mean for nvbench runs, as headlineStatistic says
    j["headlineStatistic"] = run.headlineStatistic.toStdString();
    j["p20Ns"] = jsonNumber(run.p20);
    j["p80Ns"] = jsonNumber(run.p80);
    j["samples"] = run.samples.size();
    if (std::isfinite(run.achievedGBs())) {
        j["gbps"] = run.achievedGBs();
        j["copyBandwidthFraction"] = jsonNumber(run.bandwidthFraction());
    }
    j["noisy"] = run.isNoisy();
    j["file"] = QString(run.file + run.pointer).toStdString();
    return j;
}

QString ratioText(double ratio)
{
    return std::isfinite(ratio) ? QString::number(ratio, 'f', 3) + QStringLiteral("×") : QStringLiteral("–");
}

QString percentText(double fraction)
{
    return std::isfinite(fraction) ? QString::number(fraction * 100, 'f', 0) + QLatin1Char('%') : QString();
}

QString gbsText(double gbs)
{
    return std::isfinite(gbs) ? QString::number(gbs, 'f', 1) : QString();
}

// Bandwidth columns appear when some run of the comparison records its achieved GB/s (kix's own runs do).
bool hasBandwidth(const Comparison& c)
{
    for (const ComparisonPair& p : c.pairs) {
        if (std::isfinite(p.run->achievedGBs()) || std::isfinite(p.baseline->achievedGBs()))
            return true;
    }
    return false;
}

QString verdictText(const ComparisonPair& p)
{
    return verdictName(p.verdict) + (p.noisy ? QStringLiteral(" (noisy)") : QString());
}

QString pValueText(double p)
{
    return std::isfinite(p) ? QString::number(p, 'g', 3) : QString();
}

QString csvNumber(double v)
{
    return std::isfinite(v) ? QString::number(v, 'g', 15) : QString();
}

} // namespace

QByteArray comparisonToTable(const Comparison& c)
{
    QByteArray out
        = QStringLiteral("baseline: %1 · verdicts at α = %2\n\n").arg(c.baseline.describe()).arg(c.alpha).toUtf8();
    const bool bandwidth = hasBandwidth(c);
    QVector<QStringList> rows;
    QStringList header = { QStringLiteral("workload"), QStringLiteral("provider"), QStringLiteral("gpu"),
        QStringLiteral("baseline"), QStringLiteral("baseline median"), QStringLiteral("median"),
        QStringLiteral("speed-up"), QStringLiteral("verdict"), QStringLiteral("by"), QStringLiteral("p") };
    if (bandwidth)
        header << QStringLiteral("GB/s") << QStringLiteral("of copy") << QStringLiteral("baseline GB/s");
    rows.append(header << QStringLiteral("warnings"));
    for (const ComparisonPair& p : c.pairs) {
        const TimeScale scale = chooseTimeScale({ p.baseline->median, p.run->median });
        QStringList row = { workloadDescription(*p.run), p.run->provider, p.run->gpuDisplayName(),
            p.baseline->provider + QStringLiteral(" · ") + p.baseline->gpuDisplayName(),
            scale.format(p.baseline->median), scale.format(p.run->median), ratioText(p.ratio), verdictText(p),
            verdictMethodName(p.method), pValueText(p.pValue) };
        if (bandwidth)
            row << gbsText(p.run->achievedGBs()) << percentText(p.run->bandwidthFraction())
                << gbsText(p.baseline->achievedGBs());
        rows.append(row << p.warnings.join(QStringLiteral("; ")));
    }
    out += alignedRows(rows);

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
    out += alignedRows(summary);
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
        QStringLiteral("warnings"), QStringLiteral("notes"), QStringLiteral("run_id"), QStringLiteral("baseline_id"),
        QStringLiteral("noisy"), QStringLiteral("gbps"), QStringLiteral("copy_bandwidth_fraction"),
        QStringLiteral("baseline_gbps") });
    for (const ComparisonPair& p : c.pairs) {
        const Run& r = *p.run;
        const Run& b = *p.baseline;
        out += csvLine({ r.kernel, r.pass, r.workloadSlug, r.dtype, r.provider, r.gpuDisplayName(), b.provider,
            b.gpuDisplayName(), csvNumber(b.median), csvNumber(r.median), csvNumber(p.ratio), verdictName(p.verdict),
            verdictMethodName(p.method), csvNumber(p.pValue), p.warnings.join(QStringLiteral("; ")),
            p.notes.join(QStringLiteral("; ")), r.externalId, b.externalId,
            p.noisy ? QStringLiteral("true") : QStringLiteral("false"), csvNumber(r.achievedGBs()),
            csvNumber(r.bandwidthFraction()), csvNumber(b.achievedGBs()) });
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
        j["ratio"] = jsonNumber(p.ratio);
        j["verdict"] = verdictName(p.verdict).toStdString();
        j["method"] = verdictMethodName(p.method).toStdString();
        j["pValue"] = jsonNumber(p.pValue);
        j["noisy"] = p.noisy;
        j["reason"] = p.reason.toStdString();
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
        j["geomean"] = jsonNumber(s.geomean);
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
