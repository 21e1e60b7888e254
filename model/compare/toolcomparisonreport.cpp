// SPDX-License-Identifier: Apache-2.0
// The table, CSV and JSON of a ToolComparison (see toolcomparison.h).
#include "model/compare/toolcomparisonreport.h"

#include "model/write/csvwriter.h"

#include "model/chartdata/timescale.h"
#include "model/write/jsonnumber.h"
#include "model/write/texttable.h"

#include <nlohmann/json.hpp>

#include <QFileInfo>

#include <cmath>

namespace kix {

namespace {

using Json = nlohmann::ordered_json;

bool isNvbench(const ToolComparison& c)
{
    return c.family == QLatin1String("nvbench_cold");
}

QString percent(double fraction)
{
    return std::isfinite(fraction) ? QString::number(100 * fraction, 'f', 2) + QLatin1Char('%') : QStringLiteral("-");
}

QString signedPercent(double fraction)
{
    return std::isfinite(fraction) ? (fraction >= 0 ? QStringLiteral("+") : QString()) + percent(fraction)
                                   : QStringLiteral("-");
}

QString pValueFixed(double p)
{
    return std::isfinite(p) ? QString::number(p, 'f', 4) : QStringLiteral("-");
}

QStringList header(const ToolComparison& c)
{
    if (isNvbench(c))
        return { QStringLiteral("state"), QStringLiteral("ref time"), QStringLiteral("ref noise"),
            QStringLiteral("cmp time"), QStringLiteral("cmp noise"), QStringLiteral("diff"), QStringLiteral("%diff"),
            QStringLiteral("status") };
    return { QStringLiteral("benchmark"), QStringLiteral("time"), QStringLiteral("cpu"), QStringLiteral("time old"),
        QStringLiteral("time new"), QStringLiteral("cpu old"), QStringLiteral("cpu new"),
        QStringLiteral("time p-value"), QStringLiteral("cpu p-value"), QStringLiteral("repetitions") };
}

QStringList row(const ToolComparison& c, const FamilyPair& p)
{
    const TimeScale s = chooseTimeScale({ p.referenceTime, p.candidateTime });
    if (isNvbench(c)) {
        const QString diff = (p.diff >= 0 ? QStringLiteral("+") : QString()) + s.format(p.diff);
        return { p.name, s.format(p.referenceTime), percent(p.referenceNoise), s.format(p.candidateTime),
            percent(p.candidateNoise), diff, signedPercent(p.fracDiff), p.status };
    }
    const QString reps = QStringLiteral("%1 vs %2").arg(p.referenceRepetitions).arg(p.candidateRepetitions);
    return { p.name, signedPercent(p.timeChange), signedPercent(p.cpuChange), s.format(p.referenceTime),
        s.format(p.candidateTime), s.format(p.referenceCpu), s.format(p.candidateCpu), pValueFixed(p.timePValue),
        pValueFixed(p.cpuPValue), reps };
}

} // namespace

QByteArray toolComparisonToTable(const ToolComparison& c)
{
    QString text = QStringLiteral("%1 comparison (family %2): reference %3, candidate %4\n\n")
                       .arg(isNvbench(c) ? QStringLiteral("nvbench_compare-style") : QStringLiteral("compare.py-style"),
                           c.family, c.referenceFile, c.candidateFile);
    QVector<QStringList> rows { header(c) };
    for (const FamilyPair& p : c.pairs)
        rows.append(row(c, p));
    QVector<int> numbers; // every column between the name and the status
    for (int i = 1; i + 1 < rows.first().size(); ++i)
        numbers << i;
    text += QString::fromUtf8(alignedRows(rows, {}, numbers));
    for (const FamilyPair& p : c.pairs) {
        for (const QString& w : p.warnings)
            text += QStringLiteral("warning: %1: %2\n").arg(p.name, w);
    }
    if (isNvbench(c)) {
        int faster = 0, slower = 0, same = 0, unknown = 0;
        for (const FamilyPair& p : c.pairs) {
            faster += p.status == QLatin1String("faster");
            slower += p.status == QLatin1String("slower");
            same += p.status == QLatin1String("same");
            unknown += p.status == QLatin1String("unknown");
        }
        text += QStringLiteral("\n%1 pairs: %2 faster, %3 slower, %4 same within the noise, %5 unknown\n")
                    .arg(c.pairs.size())
                    .arg(faster)
                    .arg(slower)
                    .arg(same)
                    .arg(unknown);
        text += QStringLiteral("times are the mean cold GPU time; noise is nvbench's relative standard deviation; "
                               "same = |%diff| <= the smaller noise\n");
    } else {
        text += QStringLiteral("\n%1 pairs; change = (new - old) / |old| of the mean over repetitions; p-values: "
                               "two-sided Mann-Whitney U of the repetitions (alpha %2)\n")
                    .arg(c.pairs.size())
                    .arg(c.alpha);
    }
    for (const QString& n : c.notes)
        text += QStringLiteral("note: ") + n + QLatin1Char('\n');
    return text.toUtf8();
}

QByteArray toolComparisonToCsv(const ToolComparison& c)
{
    QByteArray out;
    auto line = [&out](const QStringList& cells) { out += csvLine(cells); };
    const auto num = [](double v) { return std::isfinite(v) ? QString::number(v, 'g', 12) : QString(); };
    if (isNvbench(c)) {
        line({ QStringLiteral("state"), QStringLiteral("ref_time_ns"), QStringLiteral("ref_noise"),
            QStringLiteral("cmp_time_ns"), QStringLiteral("cmp_noise"), QStringLiteral("diff_ns"),
            QStringLiteral("frac_diff"), QStringLiteral("status") });
        for (const FamilyPair& p : c.pairs)
            line({ p.name, num(p.referenceTime), num(p.referenceNoise), num(p.candidateTime), num(p.candidateNoise),
                num(p.diff), num(p.fracDiff), p.status });
    } else {
        line({ QStringLiteral("benchmark"), QStringLiteral("time_change"), QStringLiteral("cpu_change"),
            QStringLiteral("time_old_ns"), QStringLiteral("time_new_ns"), QStringLiteral("cpu_old_ns"),
            QStringLiteral("cpu_new_ns"), QStringLiteral("time_pvalue"), QStringLiteral("cpu_pvalue"),
            QStringLiteral("repetitions_old"), QStringLiteral("repetitions_new") });
        for (const FamilyPair& p : c.pairs)
            line({ p.name, num(p.timeChange), num(p.cpuChange), num(p.referenceTime), num(p.candidateTime),
                num(p.referenceCpu), num(p.candidateCpu), num(p.timePValue), num(p.cpuPValue),
                QString::number(p.referenceRepetitions), QString::number(p.candidateRepetitions) });
    }
    return out;
}

QByteArray toolComparisonToJson(const ToolComparison& c)
{
    Json j;
    j["family"] = c.family.toStdString();
    j["reference"] = c.referenceFile.toStdString();
    j["candidate"] = c.candidateFile.toStdString();
    Json pairs = Json::array();
    for (const FamilyPair& p : c.pairs) {
        Json e;
        e["name"] = p.name.toStdString();
        e["referenceId"] = p.reference->externalId.toStdString();
        e["candidateId"] = p.candidate->externalId.toStdString();
        if (isNvbench(c)) {
            e["refTimeNs"] = jsonNumber(p.referenceTime);
            e["refNoise"] = jsonNumber(p.referenceNoise);
            e["cmpTimeNs"] = jsonNumber(p.candidateTime);
            e["cmpNoise"] = jsonNumber(p.candidateNoise);
            e["diffNs"] = jsonNumber(p.diff);
            e["fracDiff"] = jsonNumber(p.fracDiff);
            e["status"] = p.status.toStdString();
        } else {
            e["timeChange"] = jsonNumber(p.timeChange);
            e["cpuChange"] = jsonNumber(p.cpuChange);
            e["timeOldNs"] = jsonNumber(p.referenceTime);
            e["timeNewNs"] = jsonNumber(p.candidateTime);
            e["cpuOldNs"] = jsonNumber(p.referenceCpu);
            e["cpuNewNs"] = jsonNumber(p.candidateCpu);
            e["timePValue"] = jsonNumber(p.timePValue);
            e["cpuPValue"] = jsonNumber(p.cpuPValue);
            e["repetitions"] = { p.referenceRepetitions, p.candidateRepetitions };
        }
        Json warnings = Json::array();
        for (const QString& w : p.warnings)
            warnings.push_back(w.toStdString());
        e["warnings"] = warnings;
        pairs.push_back(e);
    }
    j["pairs"] = pairs;
    Json notes = Json::array();
    for (const QString& n : c.notes)
        notes.push_back(n.toStdString());
    j["notes"] = notes;
    return QByteArray::fromStdString(j.dump(2)) + '\n';
}

} // namespace kix
