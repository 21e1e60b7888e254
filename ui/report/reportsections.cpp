// SPDX-License-Identifier: Apache-2.0
// The HTML report's sections: inputs, charts, verdicts, rank, records and comparability notes.
#include "ui/report/reportsections.h"

#include "model/compare/comparison.h"
#include "model/compare/rank.h"
#include "model/compare/records.h"
#include "ui/report/htmlreport.h"
#include "ui/report/reportcharts.h"
#include "ui/report/reportmarkup.h"

#include <QCryptographicHash>
#include <QFile>
#include <QMap>

#include <algorithm>
#include <cmath>

namespace kix::reporthtml {

namespace {

// Caps that keep a report of a large load readable and small; each says what it left out and which command has all.
constexpr int maxPairs = 300;
constexpr int maxCohorts = 60;
constexpr int maxEntries = 100;
constexpr int maxTimelines = 60;
constexpr int maxGroupedLines = 40;

QString sha256Of(const QString& path, qint64* size)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("(unreadable: %1)").arg(file.errorString());
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&file))
        return QStringLiteral("(unreadable)");
    *size = file.size();
    return QStringLiteral("sha256:") + QString::fromLatin1(hash.result().toHex());
}

QString capitalized(QString text)
{
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

// Seconds and milliseconds read as the latency scale does (a leaderboard's score in s: "13.09 µs").
QString valueText(double value, const QString& unit)
{
    if (unit == QLatin1String("s"))
        return formatRankValue(value * 1e9, QStringLiteral("ns"));
    if (unit == QLatin1String("ms"))
        return formatRankValue(value * 1e6, QStringLiteral("ns"));
    return formatRankValue(value, unit);
}

// "52.1 µs–58.04 µs", the p20–p80 interval a verdict read; "–" when the run has none.
QString intervalText(const Run& run)
{
    if (!std::isfinite(run.p20) || !std::isfinite(run.p80))
        return QStringLiteral("–");
    return valueText(run.p20, run.unit) + QStringLiteral("–") + valueText(run.p80, run.unit);
}

QString samplesText(const Run& run)
{
    return run.samples.empty() ? QStringLiteral("–") : num(qint64(run.samples.size()));
}

QString gpuOf(const Run& run)
{
    return run.gpuDisplayName().isEmpty() ? QStringLiteral("(no GPU)") : run.gpuDisplayName();
}

// Lines of the form "text (N)", most frequent first, then by text; capped.
QStringList countedLines(const QMap<QString, int>& counts)
{
    QVector<QPair<int, QString>> sorted;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        sorted.append({ -it.value(), it.key() });
    std::sort(sorted.begin(), sorted.end());
    QStringList lines;
    for (const auto& [negCount, text] : std::as_const(sorted)) {
        if (lines.size() == maxGroupedLines) {
            lines << QStringLiteral("… and %1 more kinds").arg(sorted.size() - maxGroupedLines);
            break;
        }
        lines << (-negCount == 1 ? text : QStringLiteral("%1 (%2 times)").arg(text, num(-negCount)));
    }
    return lines;
}

} // namespace

void writeInputs(QString& html, const ReportInput& input, ReportSummary& summary)
{
    const RunList& loaded = input.loaded.isEmpty() ? input.runs : input.loaded;
    QMap<QString, int> loadedPerFile, reportedPerFile;
    QStringList files = input.files;
    for (const RunPtr& run : loaded) {
        if (!loadedPerFile.contains(run->file) && input.files.isEmpty())
            files << run->file;
        ++loadedPerFile[run->file];
    }
    for (const RunPtr& run : input.runs)
        ++reportedPerFile[run->file];
    summary.files = int(files.size());
    html += QStringLiteral("<h2 id=\"inputs\">Inputs</h2>\n");
    constexpr int maxFiles = 100;
    Table table(html,
        { QStringLiteral("file"), QStringLiteral("sha256"), QStringLiteral("bytes"), QStringLiteral("runs loaded"),
            QStringLiteral("runs in this report") });
    for (int i = 0; i < files.size() && i < maxFiles; ++i) {
        const QString& file = files[i];
        qint64 size = -1;
        const QString digest = sha256Of(file, &size);
        table.row({ file, digest, Table::number(size >= 0 ? num(size) : QStringLiteral("–")),
            Table::number(num(loadedPerFile.value(file))), Table::number(num(reportedPerFile.value(file))) });
    }
    if (files.size() > maxFiles)
        table.row({ QStringLiteral("… and %1 more files").arg(num(files.size() - maxFiles)), QString(), QString(),
            QString(), QString() });
}

void writeVerdicts(QString& html, const Comparison& comparison)
{
    html += QStringLiteral("<h2 id=\"verdicts\">Verdicts</h2>\n");
    if (comparison.pairs.isEmpty()) {
        para(html,
            QStringLiteral("No pairs: no latency run has a run of the baseline (%1) for the same kernel, pass, "
                           "workload and GPU.")
                .arg(comparison.baseline.isEmpty() ? QStringLiteral("none") : comparison.baseline.describe()));
        return;
    }
    para(html,
        QStringLiteral("Each run against %1 for the same kernel, pass, workload and GPU: ratio = baseline median / "
                       "median (above 1: faster). The verdict is Mann–Whitney U on raw samples at α = %2 where both "
                       "runs carry them, else whether the p20–p80 intervals overlap.")
            .arg(comparison.baseline.describe())
            .arg(comparison.alpha));
    {
        Table table(html,
            { QStringLiteral("provider"), QStringLiteral("pairs"), QStringLiteral("geometric mean"),
                QStringLiteral("faster"), QStringLiteral("slower"), QStringLiteral("same"), QStringLiteral("ambiguous"),
                QStringLiteral("with warnings"), QStringLiteral("GPUs"), QStringLiteral("passes") });
        for (const ProviderSummary& p : comparison.providers)
            table.row({ p.provider, Table::number(num(p.pairs)), Table::number(rankRatioText(p.geomean)),
                Table::number(num(p.faster)), Table::number(num(p.slower)), Table::number(num(p.same)),
                Table::number(num(p.ambiguous)), Table::number(num(p.warned)), p.gpus.join(QStringLiteral(", ")),
                p.passes.join(QStringLiteral(", ")) });
    }
    html += QStringLiteral("<h3>Every pair</h3>\n");
    Table table(html,
        { QStringLiteral("workload"), QStringLiteral("GPU"), QStringLiteral("provider"), QStringLiteral("baseline"),
            QStringLiteral("baseline median"), QStringLiteral("median"), QStringLiteral("ratio"),
            QStringLiteral("verdict"), QStringLiteral("test"), QStringLiteral("p"),
            QStringLiteral("p20–p80 baseline / run"), QStringLiteral("samples"), QStringLiteral("evidence"),
            QStringLiteral("warnings") });
    for (int i = 0; i < comparison.pairs.size() && i < maxPairs; ++i) {
        const ComparisonPair& pair = comparison.pairs[i];
        const Run& b = *pair.baseline;
        const Run& r = *pair.run;
        table.row(
            { workloadDescription(r), gpuOf(r), r.provider, b.provider, Table::number(valueText(b.median, b.unit)),
                Table::number(valueText(r.median, r.unit)), Table::number(rankRatioText(pair.ratio)),
                verdictName(pair.verdict), verdictMethodName(pair.method),
                Table::number(std::isfinite(pair.pValue) ? QString::number(pair.pValue, 'g', 3) : QStringLiteral("–")),
                Table::number(intervalText(b) + QStringLiteral(" / ") + intervalText(r)),
                Table::number(samplesText(b) + QStringLiteral(" / ") + samplesText(r)), pair.reason,
                pair.warnings.join(QStringLiteral("; ")) },
            {}, 7, verdictName(pair.verdict));
    }
    table.close();
    if (comparison.pairs.size() > maxPairs)
        para(html,
            QStringLiteral("… and %1 more pairs (kix compare PATH… lists every one).")
                .arg(num(comparison.pairs.size() - maxPairs)),
            QStringLiteral("meta"));
}

void writeRank(QString& html, const Ranking& ranking)
{
    html += QStringLiteral("<h2 id=\"rank\">Rank</h2>\n");
    if (ranking.cohorts.isEmpty()) {
        para(html, QStringLiteral("Nothing to rank: no run has a headline value."));
        return;
    }
    para(html,
        QStringLiteral("Implementations best first (lower is better) within each cohort: runs with the same strict "
                       "comparison key (operation, workload, protocol, environment, correctness spec and metric), "
                       "never across cohorts. Ratio: best / the cohort's best; %1. %2.")
            .arg(observationRuleText(), capitalized(rankingPolicyText())));
    html += QStringLiteral("<div class=\"cohorts\">\n");
    for (int c = 0; c < ranking.cohorts.size() && c < maxCohorts; ++c) {
        const RankCohort& cohort = ranking.cohorts[c];
        const Run* first = !cohort.entries.isEmpty() ? cohort.entries.first().bestRun.get()
            : !cohort.failed.isEmpty()               ? cohort.failed.first().run.get()
                                                     : nullptr;
        QString heading = cohort.key.describe();
        if (first && !first->links().operationTitle.isEmpty())
            heading = first->links().operationTitle + QStringLiteral(" — ") + heading;
        html += QStringLiteral("<section class=\"cohort\">\n<h3>") + esc(heading) + QStringLiteral("</h3>\n");
        QString scope = cohort.key.scopeText();
        if (!cohort.key.workloadTitle.isEmpty())
            scope += QStringLiteral(" · workload: ") + cohort.key.workloadTitle;
        scope += QStringLiteral(" · ") + plural(cohort.runCount(), "run", "runs");
        para(html, scope, QStringLiteral("meta"));
        // Authors where the runs name any (leaderboard submissions); the column would be empty for others.
        bool authors = false;
        for (const RankEntry& e : cohort.entries)
            authors = authors || !e.bestRun->authorText().isEmpty();
        for (const UnrankedRun& u : cohort.failed)
            authors = authors || !u.run->authorText().isEmpty();
        QStringList header { QStringLiteral("rank"), QStringLiteral("implementation"), QStringLiteral("best"),
            QStringLiteral("median"), QStringLiteral("n"), QStringLiteral("ratio"), QStringLiteral("vs best"),
            QStringLiteral("evidence") };
        if (authors)
            header.insert(2, QStringLiteral("authors"));
        Table table(html, header, QStringLiteral("rank"));
        for (int i = 0; i < cohort.entries.size() && i < maxEntries; ++i) {
            const RankEntry& e = cohort.entries[i];
            QString evidence = e.evidence;
            if (!e.differences.isEmpty())
                evidence += QStringLiteral("; differs: ") + e.differences.join(QStringLiteral("; "));
            QStringList cells { Table::number(num(e.rank)), e.bestRun->implementationLabel(),
                Table::number(valueText(e.best, cohort.key.unit)), Table::number(valueText(e.median, cohort.key.unit)),
                Table::number(num(e.count)), Table::number(rankRatioText(e.ratio)),
                distinguishableName(e.distinguishable), evidence };
            if (authors)
                cells.insert(2, e.bestRun->authorText());
            table.row(cells, e.distinguishable == Distinguishable::Best ? QStringLiteral("best") : QString());
        }
        for (const QVector<UnrankedRun>* list : { &cohort.failed, &cohort.unranked })
            for (const UnrankedRun& u : *list) {
                QStringList cells { QStringLiteral("–"), u.implementation, QStringLiteral("–"), QStringLiteral("–"),
                    QStringLiteral("–"), QStringLiteral("–"), QStringLiteral("unranked"), u.reason };
                if (authors)
                    cells.insert(2, u.run->authorText());
                table.row(cells);
            }
        table.close();
        if (cohort.entries.size() > maxEntries)
            para(html,
                QStringLiteral("… and %1 more implementations (kix rank PATH… lists every one).")
                    .arg(num(cohort.entries.size() - maxEntries)),
                QStringLiteral("meta"));
        html += QStringLiteral("</section>\n");
    }
    html += QStringLiteral("</div>\n");
    if (ranking.cohorts.size() > maxCohorts)
        para(html,
            QStringLiteral("… and %1 more cohorts (kix rank PATH… lists every one).")
                .arg(num(ranking.cohorts.size() - maxCohorts)),
            QStringLiteral("meta"));
}

void writeRecords(QString& html, const Records& records)
{
    if (records.timelines.isEmpty())
        return;
    html += QStringLiteral("<h2 id=\"records\">Records</h2>\n");
    para(html,
        QStringLiteral("Each cohort's record timeline: every passed run better (lower) than every earlier run of its "
                       "cohort, in the order observed; margin = the previous record / this value."));
    {
        Table table(html,
            { QStringLiteral("cohort"), QStringLiteral("observed"), QStringLiteral("holder"),
                QStringLiteral("implementation"), QStringLiteral("value"), QStringLiteral("margin") });
        for (int t = 0; t < records.timelines.size() && t < maxTimelines; ++t) {
            const RecordTimeline& timeline = records.timelines[t];
            for (int s = 0; s < timeline.steps.size(); ++s) {
                const RecordStep& step = timeline.steps[s];
                table.row({ s == 0 ? timeline.key.describe() : QString(),
                    step.at.isValid() ? step.at.toString(Qt::ISODate) : QStringLiteral("(undated)"),
                    recordHolder(*step.run), step.run->implementationLabel(),
                    Table::number(valueText(step.value, timeline.key.unit)),
                    Table::number(step.margin > 0 ? rankRatioText(step.margin) : QStringLiteral("first")) });
            }
        }
    }
    if (records.timelines.size() > maxTimelines)
        para(html,
            QStringLiteral("… and %1 more timelines (kix records PATH… lists every one).")
                .arg(num(records.timelines.size() - maxTimelines)),
            QStringLiteral("meta"));
    html += QStringLiteral("<h3>Standings</h3>\n");
    Table table(
        html, { QStringLiteral("holder"), QStringLiteral("records held now"), QStringLiteral("records set ever") });
    for (const RecordStanding& s : records.standings)
        table.row({ s.holder, Table::number(num(s.now)), Table::number(num(s.ever)) });
}

void writeComparability(QString& html, const ReportInput& input, const Comparison& comparison, const Ranking& ranking,
    ReportSummary& summary)
{
    html += QStringLiteral("<h2 id=\"comparability\">Comparability notes</h2>\n");
    QMap<QString, int> pairWarnings;
    for (const ComparisonPair& pair : comparison.pairs)
        for (const QString& w : pair.warnings)
            ++pairWarnings[w];
    int warned = 0;
    for (const ComparisonPair& pair : comparison.pairs)
        warned += pair.warnings.isEmpty() ? 0 : 1;
    summary.warnings += warned;
    html += QStringLiteral("<h3>Pairs compared with a warning</h3>\n");
    if (comparison.pairs.isEmpty())
        para(html, QStringLiteral("No pair was compared."));
    else if (pairWarnings.isEmpty())
        para(html, QStringLiteral("None: every pair compares runs that differ in nothing that matters."));
    else
        list(html, countedLines(pairWarnings), QStringLiteral("warn"));
    QStringList notComparable;
    if (!comparison.unpaired.isEmpty())
        notComparable << QStringLiteral("%1 without a baseline run (%2) of the same kernel, pass, workload and GPU: "
                                        "not compared")
                             .arg(plural(comparison.unpaired.size(), "latency run", "latency runs"),
                                 comparison.baseline.describe());
    if (comparison.skippedNonLatency > 0)
        notComparable << QStringLiteral("%1 of another metric than latency: not in the verdicts")
                             .arg(plural(comparison.skippedNonLatency, "run", "runs"));
    QMap<QString, int> familyLevel, failed;
    for (const RankCohort& cohort : ranking.cohorts) {
        if (!cohort.key.isStrict())
            familyLevel[cohort.key.scopeText()] += 1;
        for (const UnrankedRun& u : cohort.failed)
            ++failed[u.reason];
    }
    for (auto it = familyLevel.cbegin(); it != familyLevel.cend(); ++it)
        notComparable << QStringLiteral("%1 ranked under a %2: the runs cannot give the strict comparison key")
                             .arg(plural(it.value(), "cohort", "cohorts"), it.key());
    for (auto it = failed.cbegin(); it != failed.cend(); ++it)
        notComparable << QStringLiteral("%1 with status %2: listed, never ranked")
                             .arg(plural(it.value(), "run", "runs"), it.key());
    if (ranking.cohorts.size() > 1)
        notComparable << QStringLiteral("%1 runs fall into %2 cohorts of distinct strict keys; runs of two cohorts "
                                        "are never ranked against each other")
                             .arg(num(input.runs.size()), num(ranking.cohorts.size()));
    html += QStringLiteral("<h3>Runs not compared, and why</h3>\n");
    if (notComparable.isEmpty())
        para(html, QStringLiteral("None."));
    list(html, notComparable);
    list(html, comparison.notes + ranking.notes, QStringLiteral("meta"));

    html += QStringLiteral("<h3>Load warnings and errors</h3>\n");
    if (input.diagnostics.isEmpty()) {
        para(html, QStringLiteral("None."));
        return;
    }
    summary.warnings += int(input.diagnostics.size());
    QMap<QString, int> counts;
    QMap<QString, QString> example;
    for (const Diagnostic& d : input.diagnostics) {
        const QString kind = d.pattern();
        if (!example.contains(kind))
            example[kind] = d.toString();
        ++counts[kind];
    }
    Table table(html, { QStringLiteral("times"), QStringLiteral("kind"), QStringLiteral("first occurrence") });
    int rows = 0;
    for (auto it = counts.cbegin(); it != counts.cend() && rows < maxGroupedLines; ++it, ++rows)
        table.row({ Table::number(num(it.value())), it.key(), example.value(it.key()) });
    if (counts.size() > maxGroupedLines)
        table.row({ QString(), QStringLiteral("… and %1 more kinds").arg(counts.size() - maxGroupedLines), QString() });
}

void writeCharts(QString& html, const ReportCharts& charts)
{
    html += QStringLiteral("<h2 id=\"charts\">Charts</h2>\n");
    if (charts.charts.isEmpty())
        para(html, QStringLiteral("No chart: nothing among these runs can be drawn."));
    html += QStringLiteral("<div class=\"charts\">\n");
    for (const ReportChart& chart : charts.charts) {
        html += QStringLiteral("<figure class=\"chart%1\" data-kind=\"%2\">\n")
                    .arg(chart.wide ? QStringLiteral(" wide") : QString(), esc(chart.kind));
        html += chart.svg + QLatin1Char('\n');
        // The chart's title is drawn in it; the caption names the kind and gives the notes in full.
        html += QStringLiteral("<figcaption><p><b>") + esc(chart.kindTitle) + QStringLiteral("</b></p>\n");
        for (const QString& w : chart.warnings)
            html += QStringLiteral("<p class=\"warn\">⚠ ") + esc(w) + QStringLiteral("</p>\n");
        for (const QString& n : chart.notes)
            html += QStringLiteral("<p>") + esc(n) + QStringLiteral("</p>\n");
        html += QStringLiteral("</figcaption>\n</figure>\n");
    }
    html += QStringLiteral("</div>\n");
    if (!charts.leftOut.isEmpty()) {
        para(html, QStringLiteral("Not drawn:"), QStringLiteral("meta"));
        list(html, charts.leftOut, QStringLiteral("meta"));
    }
}

} // namespace kix::reporthtml
