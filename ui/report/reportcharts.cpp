// SPDX-License-Identifier: Apache-2.0
#include "ui/report/reportcharts.h"

#include "ui/charts/chartexporter.h"
#include "ui/charts/chartfactory.h"

#include <QApplication>
#include <QRegularExpression>
#include <QTextDocumentFragment>

namespace kix {

namespace {

constexpr int maxNotesPerChart = 8;

// The chart `kix summary --chart` draws for these runs: the window's first view, the speed-up where it compares
// with a framework baseline, the quantile chart in place of the overview table.
ChartKind summaryKind(const RunList& runs)
{
    ChartKind kind = firstViewKind(runs);
    if (kind == ChartKind::Quantiles && speedupIsFirstView(runs))
        kind = ChartKind::Speedup;
    if (kind == ChartKind::Overview)
        kind = ChartKind::Quantiles;
    return kind;
}

bool hasHistory(const History& history)
{
    for (const HistorySeries& series : history.series)
        if (series.points.size() >= 2)
            return true;
    return false;
}

ReportChart render(ChartKind kind, std::unique_ptr<QChart> chart, const ChartInfo& info, int index, const QSize& size,
    const RunList& runs, const ChartOptions& options)
{
    ReportChart out;
    out.kind = chartKindName(kind);
    out.kindTitle = chartKindTitle(kind);
    out.title = QTextDocumentFragment::fromHtml(chart->title()).toPlainText().simplified();
    if (out.title.isEmpty())
        out.title = chartKindTitle(kind);
    out.warnings = info.warnings;
    // The window's notes, less those that point at its controls.
    for (const QString& note : info.notes)
        if (!note.contains(QLatin1String("choose another above")))
            out.notes << note;
    const qsizetype notes = out.notes.size();
    out.notes = out.notes.mid(0, maxNotesPerChart);
    if (notes > maxNotesPerChart)
        out.notes << QStringLiteral("… and %1 more notes").arg(notes - maxNotesPerChart);
    QByteArray svg = ChartExporter::renderSvg(std::move(chart), size, out.title);
    // Qt elides axis labels that do not fit ("..."): such a chart is drawn again across the page, taller.
    if (svg.contains(">...</text>") || svg.contains(">\xe2\x80\xa6</text>")) {
        svg = ChartExporter::renderSvg(
            buildChart(kind, runs, options), QSize(size.width() * 2 + 40, size.height() * 4 / 3), out.title);
        out.wide = true;
    }
    out.svg = inlineSvg(svg, QStringLiteral("c%1-").arg(index));
    return out;
}

} // namespace

ReportCharts reportCharts(const RunList& runs, int maxCharts, int width, int height)
{
    ReportCharts result;
    if (runs.isEmpty())
        return result;
    if (!qobject_cast<QApplication*>(QCoreApplication::instance())) {
        result.leftOut << QStringLiteral("every chart: charts are drawn with Qt Charts, which needs a QApplication");
        return result;
    }
    const QSize size(width, height);
    QVector<ChartKind> order { summaryKind(runs) };
    for (ChartKind kind :
        { ChartKind::Speedup, ChartKind::Quantiles, ChartKind::Sweep, ChartKind::Rank, ChartKind::History })
        if (!order.contains(kind))
            order << kind;

    QStringList moreCohorts; // Rank cohorts of three implementations or more, besides the one drawn
    for (ChartKind kind : order) {
        if (result.charts.size() >= maxCharts) {
            result.leftOut
                << QStringLiteral("the %1 chart (at most %2 charts)").arg(chartKindName(kind)).arg(maxCharts);
            continue;
        }
        const ChartOptions options;
        PreparedChart prepared = prepareChart(kind, runs, options);
        if (prepared.info.isEmpty)
            continue; // no data for this kind
        if (kind == ChartKind::History && !hasHistory(prepared.history.history)) {
            result.leftOut << QStringLiteral("the history chart: no series has two runs over time");
            continue;
        }
        if (kind == ChartKind::Rank
            && (prepared.rankCohort < 0 || prepared.ranking.cohorts[prepared.rankCohort].entries.size() < 2)) {
            result.leftOut << QStringLiteral("the rank chart: no cohort has two implementations to rank");
            continue;
        }
        const Ranking ranking = kind == ChartKind::Rank ? prepared.ranking : Ranking {};
        ChartInfo info;
        std::unique_ptr<QChart> chart = drawChart(std::move(prepared), options, &info);
        if (info.isEmpty)
            continue;
        result.charts << render(kind, std::move(chart), info, result.charts.size() + 1, size, runs, options);
        for (const RankCohort& cohort : ranking.cohorts)
            if (cohort.entries.size() >= 3 && cohort.key.id() != info.cohort)
                moreCohorts << cohort.key.id();
    }
    int cohortsLeft = moreCohorts.size();
    for (const QString& id : std::as_const(moreCohorts)) {
        if (result.charts.size() >= maxCharts)
            break;
        ChartOptions options;
        options.cohort = id;
        ChartInfo info;
        std::unique_ptr<QChart> chart = buildChart(ChartKind::Rank, runs, options, &info);
        --cohortsLeft;
        if (!info.isEmpty)
            result.charts << render(
                ChartKind::Rank, std::move(chart), info, result.charts.size() + 1, size, runs, options);
    }
    if (cohortsLeft > 0)
        result.leftOut << QStringLiteral("%1 more Rank cohorts of three implementations or more (at most %2 charts; "
                                         "kix chart --kind rank --cohort TEXT draws one)")
                              .arg(cohortsLeft)
                              .arg(maxCharts);
    return result;
}

QString inlineSvg(const QByteArray& svg, const QString& idPrefix)
{
    QString s = QString::fromUtf8(svg);
    const qsizetype start = s.indexOf(QLatin1String("<svg"));
    if (start < 0)
        return {};
    s = s.mid(start);
    static const QRegularExpression xmlns(QStringLiteral("\\s+xmlns(:\\w+)?=\"[^\"]*\""));
    s.remove(xmlns);
    static const QRegularExpression viewBox(QStringLiteral("viewBox=\"0 0 ([0-9.]+) ([0-9.]+)\""));
    const QRegularExpressionMatch box = viewBox.match(s);
    static const QRegularExpression mmSize(QStringLiteral("^<svg width=\"[^\"]*\" height=\"[^\"]*\""));
    if (box.hasMatch())
        s.replace(mmSize, QStringLiteral("<svg width=\"%1\" height=\"%2\"").arg(box.captured(1), box.captured(2)));
    // Nothing outside the file: an element that names another resource goes (QSvgGenerator writes pixmaps as data:
    // URLs, which stay).
    static const QRegularExpression external(
        QStringLiteral("<(image|use|a|script|foreignObject)\\b[^>]*(href|src)=\"(?!data:|#)[^\"]*\"[^>]*>"),
        QRegularExpression::CaseInsensitiveOption);
    s.remove(external);
    static const QRegularExpression id(QStringLiteral("\\bid=\"([^\"]+)\""));
    static const QRegularExpression url(QStringLiteral("url\\(#([^)]+)\\)"));
    static const QRegularExpression href(QStringLiteral("href=\"#([^\"]+)\""));
    s.replace(id, QStringLiteral("id=\"%1\\1\"").arg(idPrefix));
    s.replace(url, QStringLiteral("url(#%1\\1)").arg(idPrefix));
    s.replace(href, QStringLiteral("href=\"#%1\\1\"").arg(idPrefix));
    // Smaller and the same picture: Qt's generic family (the page's style names a real one), identity transforms
    // and the empty groups QSvgGenerator writes for every state change go, and so do blank lines.
    static const QRegularExpression genericFamily(QStringLiteral("\\s*font-family=\"Sans Serif\""));
    s.remove(genericFamily);
    s.remove(QStringLiteral(" transform=\"matrix(1,0,0,1,0,0)\""));
    static const QRegularExpression emptyGroup(QStringLiteral("<g\\b[^>]*>\\s*</g>"));
    for (qsizetype before = -1; before != s.size();) {
        before = s.size();
        s.remove(emptyGroup);
    }
    static const QRegularExpression blankLines(QStringLiteral("\\n\\s*\\n"));
    static const QRegularExpression spaceBeforeEnd(QStringLiteral(" *\\n>"));
    s.replace(blankLines, QStringLiteral("\n"));
    s.replace(spaceBeforeEnd, QStringLiteral(">"));
    return s.trimmed();
}

} // namespace kix
