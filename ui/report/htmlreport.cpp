// SPDX-License-Identifier: Apache-2.0
#include "ui/report/htmlreport.h"

#include "kix/config.h"
#include "model/compare/comparison.h"
#include "model/compare/rank.h"
#include "model/compare/records.h"
#include "model/write/runwriter.h"
#include "ui/report/reportcharts.h"
#include "ui/report/reportmarkup.h"
#include "ui/report/reportsections.h"

#include <QFileInfo>

namespace kix {

namespace {

// Print-friendly and readable without a network: system fonts only, no external asset.
const char* const styleSheet = R"(
body{font:14px/1.45 "DejaVu Sans",system-ui,sans-serif;color:#1b1f24;margin:24px auto;max-width:1560px;padding:0 16px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;border-bottom:2px solid #d0d7de;padding-bottom:3px;margin-top:30px}
h3{font-size:15px;margin:18px 0 4px}p{margin:4px 0}code{font:12px "DejaVu Sans Mono",monospace;background:#f3f4f6;
padding:1px 3px;border-radius:3px;word-break:break-all}table{border-collapse:collapse;margin:6px 0 12px;font-size:13px}
th,td{border:1px solid #d0d7de;padding:3px 7px;text-align:left;vertical-align:top}th{background:#f3f4f6}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}tr.best td{background:#eef7ee}
.faster{color:#116329;font-weight:bold}.slower{color:#a40e26;font-weight:bold}.same,.ambiguous{color:#57606a}
.cohorts{display:flex;flex-wrap:wrap;gap:0 28px}.cohort{flex:1 1 700px;max-width:100%;overflow-x:auto}
.meta{color:#57606a}.warn{color:#9a6700}dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;
margin:10px 0}dl.facts dt{font-weight:bold}dl.facts dd{margin:0}nav a{margin-right:14px}
.charts{display:flex;flex-wrap:wrap;gap:16px}figure{margin:0;border:1px solid #d0d7de;padding:8px;max-width:740px;
break-inside:avoid}figure.wide{max-width:1520px}figure svg{display:block;max-width:100%;height:auto;font-family:"DejaVu Sans",sans-serif}
figure svg text{font-family:"DejaVu Sans",sans-serif}figcaption{font-size:12px;color:#57606a;
margin-top:4px}figcaption p{margin:2px 0}ul{margin:4px 0;padding-left:22px}
@media print{body{margin:0;max-width:none;font-size:11px}nav{display:none}h2{break-after:avoid}
table,figure{break-inside:avoid}}
)";

} // namespace

QString htmlEscaped(const QString& text)
{
    return reporthtml::esc(text);
}

QByteArray htmlReport(const ReportInput& input, ReportSummary* summaryOut)
{
    using namespace reporthtml; // the markup's building blocks and the sections
    ReportSummary summary;
    summary.runs = int(input.runs.size());
    const Comparison comparison = compareRuns(input.runs, Baseline::defaultFor(input.runs));
    const Ranking ranking = rankRuns(input.runs);
    const Records records = recordTimelines(input.runs);
    const ReportCharts charts = reportCharts(input.runs);
    summary.cohorts = int(ranking.cohorts.size());
    summary.pairs = int(comparison.pairs.size());
    summary.records = int(records.timelines.size());
    summary.charts = int(charts.charts.size());
    summary.chartsLeftOut = int(charts.leftOut.size());

    const QString title = input.title.isEmpty()
        ? QStringLiteral("kix report: %1").arg(plural(input.runs.size(), "run", "runs"))
        : input.title;
    QString body;
    writeInputs(body, input, summary);
    QString sections;
    writeCharts(sections, charts);
    writeVerdicts(sections, comparison);
    writeRank(sections, ranking);
    writeRecords(sections, records);
    writeComparability(sections, input, comparison, ranking, summary);

    QString html;
    html += QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    html += QStringLiteral("<meta name=\"generator\" content=\"kix %1\">\n").arg(QStringLiteral(KIX_VERSION));
    html += QStringLiteral("<title>") + esc(title) + QStringLiteral("</title>\n<style>") + QString::fromUtf8(styleSheet)
        + QStringLiteral("</style>\n</head>\n<body>\n<header>\n");
    html += QStringLiteral("<h1>") + esc(title) + QStringLiteral("</h1>\n");
    // The one line that differs between two reports of the same input.
    html += QStringLiteral("<p class=\"meta\" id=\"generated\">Generated <time datetime=\"%1\">%1</time></p>\n")
                .arg(input.generatedAt.toUTC().toString(Qt::ISODate));
    html += QStringLiteral("<dl class=\"facts\">\n");
    const auto fact = [&html](const QString& term, const QString& definitionHtml) {
        html += QStringLiteral("<dt>") + esc(term) + QStringLiteral("</dt><dd>") + definitionHtml
            + QStringLiteral("</dd>\n");
    };
    fact(QStringLiteral("Made by"), QStringLiteral("<code>") + esc(input.madeBy) + QStringLiteral("</code>"));
    fact(QStringLiteral("Filter"),
        input.filter.isEmpty() ? QStringLiteral("none: every run loaded")
                               : QStringLiteral("<code>") + esc(input.filter) + QStringLiteral("</code>"));
    fact(QStringLiteral("kix"),
        esc(QStringLiteral("kix %1 (%2)")
                .arg(QStringLiteral(KIX_VERSION),
                    KIX_HAVE_CUDA ? QStringLiteral("CUDA backend built") : QStringLiteral("CPU backend only"))));
    fact(QStringLiteral("Runs"),
        esc(QStringLiteral("%1 from %2").arg(num(summary.runs), plural(summary.files, "file", "files"))));
    fact(QStringLiteral("Cohorts"), esc(num(summary.cohorts)));
    fact(QStringLiteral("Pairs"), esc(num(summary.pairs)));
    fact(QStringLiteral("Warnings"),
        esc(QStringLiteral("%1 (load diagnostics and pairs compared with a warning)").arg(num(summary.warnings))));
    html += QStringLiteral("</dl>\n");
    html += body;
    html += QStringLiteral("<nav><a href=\"#charts\">Charts</a><a href=\"#verdicts\">Verdicts</a><a href=\"#rank\">"
                           "Rank</a>");
    if (!records.timelines.isEmpty())
        html += QStringLiteral("<a href=\"#records\">Records</a>");
    html += QStringLiteral("<a href=\"#comparability\">Comparability</a></nav>\n");
    html += QStringLiteral("</header>\n<main>\n") + sections + QStringLiteral("</main>\n</body>\n</html>\n");
    if (summaryOut)
        *summaryOut = summary;
    return html.toUtf8();
}

bool writeHtmlReport(const ReportInput& input, const QString& path, QString* error, ReportSummary* summary)
{
    if (QFileInfo(path).isDir()) {
        if (error)
            *error = QStringLiteral("%1: is a directory; the report is one file (e.g. report.html)").arg(path);
        return false;
    }
    return writeFileAtomically(path, htmlReport(input, summary), error);
}

} // namespace kix
