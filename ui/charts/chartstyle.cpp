// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/chartstyle.h"

#include "model/chartdata/quantiledata.h" // shortGpuName
#include "ui/charts/charthover.h"

#include <QAbstractSeries>

#include <QLegendMarker>

#include <QAbstractAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QLegend>
#include <QScatterSeries>
#include <QTextDocument>

namespace kix {

bool ChartStyle::isDark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

void ChartStyle::apply(QChart* chart, bool dark)
{
    chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setAnimationOptions(QChart::NoAnimation); // charts of 100k runs must appear at once
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setShowToolTips(true);
    // Legend entries drawn like their series: a dashed line for a dashed line, ▲ for the faster verdict.
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    chart->setBackgroundRoundness(0);
    // Thin margins: in a 720 px window every pixel of height goes to the plot.
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setMargins(QMargins(6, 2, 10, 2));
}

QColor ChartStyle::seriesColor(int index, bool dark)
{
    // A qualitative palette that stays distinguishable for the common forms of colour blindness.
    static const QRgb light[]
        = { 0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf };
    QColor c = QColor::fromRgb(light[index % 10]);
    if (dark)
        c = c.lighter(125);
    return c;
}

QColor ChartStyle::providerColor(const QString& provider, bool dark)
{
    // Okabe & Ito (2008): blue, orange, bluish green, vermillion, reddish purple, sky blue, yellow, grey.
    static const QRgb palette[] = { 0x0072b2, 0xe69f00, 0x009e73, 0xd55e00, 0xcc79a7, 0x56b4e9, 0xf0e442, 0x7f7f7f };
    static const struct
    {
        const char* name;
        int colour;
    } known[] = { { "liger", 0 }, { "huggingface", 1 }, { "torch", 1 }, { "triton", 2 }, { "torch_compile", 3 },
        { "torch-compile", 3 }, { "apex", 4 }, { "cudnn", 4 }, { "kix-fused", 5 }, { "kix-cpu", 5 },
        { "kix-reference", 7 } };
    int index = -1;
    for (const auto& k : known) {
        if (provider.compare(QLatin1String(k.name), Qt::CaseInsensitive) == 0) {
            index = k.colour;
            break;
        }
    }
    if (index < 0)
        index = int(qHash(provider.toLower()) % 8u);
    QColor c = QColor::fromRgb(palette[index]);
    if (dark && index == 0)
        c = c.lighter(140); // the blue is too dark on a dark background
    return c;
}

Qt::BrushStyle ChartStyle::variantBrush(int variant)
{
    static const Qt::BrushStyle styles[]
        = { Qt::SolidPattern, Qt::BDiagPattern, Qt::Dense4Pattern, Qt::CrossPattern, Qt::FDiagPattern };
    return styles[variant % 5];
}

Qt::PenStyle ChartStyle::variantPen(int variant)
{
    static const Qt::PenStyle styles[] = { Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine };
    return styles[variant % 4];
}

namespace {

const QRgb lineColours[] = { 0x0072b2, 0xe69f00, 0x009e73, 0xd55e00, 0xcc79a7, 0x56b4e9 };
constexpr int lineColourCount = int(sizeof(lineColours) / sizeof(lineColours[0]));
const Qt::PenStyle lineDashes[] = { Qt::SolidLine, Qt::DashLine };
constexpr int lineDashCount = int(sizeof(lineDashes) / sizeof(lineDashes[0]));

} // namespace

int ChartStyle::distinctLineCount()
{
    return lineColourCount * lineDashCount;
}

QColor ChartStyle::lineColor(int index, bool dark)
{
    QColor c = QColor::fromRgb(lineColours[index % lineColourCount]);
    if (dark && index % lineColourCount == 0)
        c = c.lighter(140); // the blue is too dark on a dark background
    return c;
}

Qt::PenStyle ChartStyle::lineDash(int index)
{
    return lineDashes[(index / lineColourCount) % lineDashCount];
}

QColor ChartStyle::verdictColor(Verdict verdict, bool dark)
{
    switch (verdict) {
    case Verdict::Faster:
        return dark ? QColor(0x5c, 0xd6, 0x5c) : QColor(0x1a, 0x7f, 0x1a);
    case Verdict::Slower:
        return dark ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc0, 0x1c, 0x1c);
    case Verdict::Same:
        return dark ? QColor(0xbb, 0xbb, 0xbb) : QColor(0x60, 0x60, 0x60);
    case Verdict::Ambiguous:
        break;
    }
    return dark ? QColor(0xff, 0xc1, 0x4d) : QColor(0xb3, 0x6b, 0x00);
}

QColor ChartStyle::warningColor(bool dark)
{
    return dark ? QColor(0xff, 0xb3, 0x47) : QColor(0xa8, 0x4a, 0x00);
}

QStringList ChartStyle::categoryLabels(const QStringList& labels)
{
    QStringList out;
    out.reserve(labels.size());
    for (const QString& label : labels) {
        QString html = label.toHtmlEscaped().replace(QStringLiteral(" · "), QStringLiteral("<br>"));
        // A category axis drops repeated labels, which would shift every later category.
        for (int n = 2; out.contains(html); ++n)
            html = label.toHtmlEscaped().replace(QStringLiteral(" · "), QStringLiteral("<br>"))
                + QStringLiteral(" (%1)").arg(n);
        out << html;
    }
    return out;
}

void ChartStyle::placeLegend(QChart* chart, int seriesCount)
{
    chart->legend()->setAlignment(seriesCount > 4 ? Qt::AlignRight : Qt::AlignBottom);
}

void ChartStyle::fitLegend(QChart* chart, const QFont& font, double width)
{
    QLegend* legend = chart->legend();
    if (!legend->isVisible() || !(legend->alignment() & (Qt::AlignTop | Qt::AlignBottom)) || width <= 0)
        return;
    QStringList labels;
    for (QLegendMarker* marker : legend->markers())
        if (marker->isVisible())
            labels << marker->label();
    if (labels.isEmpty())
        return;
    const double share = width / labels.size();
    const auto fits = [&](const QFont& f) {
        const QFontMetricsF metrics(f);
        // an entry: its margins (4 px each side), the marker (a line high) and the space after it (4 px)
        for (const QString& label : std::as_const(labels))
            if (metrics.horizontalAdvance(label) + metrics.height() + 16 > share)
                return false;
        return true;
    };
    QFont fitted = font;
    while (fitted.pointSizeF() > 6 && !fits(fitted))
        fitted.setPointSizeF(std::max(6.0, fitted.pointSizeF() - 0.5));
    if (legend->font() != fitted)
        legend->setFont(fitted);
}

QString ChartStyle::titleHtml(
    const QString& title, const QStringList& subtitles, const QStringList& warnings, bool dark)
{
    QString html = QStringLiteral("<b>") + title.toHtmlEscaped() + QStringLiteral("</b>");
    for (const QString& line : subtitles)
        html += QStringLiteral("<br><small>") + line.toHtmlEscaped() + QStringLiteral("</small>");
    const int shown = std::min<int>(3, warnings.size());
    for (int i = 0; i < shown; ++i)
        html += QStringLiteral("<br><small><font color=\"%1\">⚠ %2</font></small>")
                    .arg(warningColor(dark).name(), warnings[i].toHtmlEscaped());
    if (warnings.size() > shown)
        html += QStringLiteral("<br><small><font color=\"%1\">⚠ and %2 more warnings</font></small>")
                    .arg(warningColor(dark).name())
                    .arg(warnings.size() - shown);
    return html;
}

namespace {

// How wide `html` draws in `font` (one line: no wrapping).
double htmlWidth(const QString& html, const QFont& font)
{
    QTextDocument doc;
    doc.setDefaultFont(font);
    doc.setDocumentMargin(0);
    doc.setHtml(html);
    return doc.idealWidth();
}

// `text` (plain) in lines that fit `width` when drawn as `open` + line + `close`.
QStringList wrapLines(const QString& text, const QFont& font, double width, const QString& open, const QString& close)
{
    if (width <= 0 || htmlWidth(open + text.toHtmlEscaped() + close, font) <= width)
        return { text };
    QStringList lines;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (line.isEmpty() || htmlWidth(open + candidate.toHtmlEscaped() + close, font) <= width) {
            line = candidate;
        } else {
            lines << line;
            line = word;
        }
    }
    if (!line.isEmpty())
        lines << line;
    return lines;
}

} // namespace

QString ChartStyle::titleHtml(const QString& title, const QStringList& subtitles, const QStringList& warnings,
    bool dark, const QFont& font, double width)
{
    auto wrap = [&](const QStringList& lines, const QString& open, const QString& close) {
        QStringList out;
        for (const QString& line : lines)
            out += wrapLines(line, font, width, open, close);
        return out;
    };
    const QString bold = QStringLiteral("<b>"), small = QStringLiteral("<small>");
    const QStringList titleLines = wrap({ title }, bold, QStringLiteral("</b>"));
    QString html = bold + titleLines.front().toHtmlEscaped();
    for (int i = 1; i < titleLines.size(); ++i)
        html += QStringLiteral("<br>") + titleLines[i].toHtmlEscaped();
    html += QStringLiteral("</b>");
    for (const QString& line : wrap(subtitles, small, QStringLiteral("</small>")))
        html += QStringLiteral("<br><small>") + line.toHtmlEscaped() + QStringLiteral("</small>");
    const int shown = std::min<int>(3, warnings.size());
    QStringList warned;
    for (int i = 0; i < shown; ++i)
        warned << QStringLiteral("⚠ ") + warnings[i];
    if (warnings.size() > shown)
        warned << QStringLiteral("⚠ and %1 more warnings").arg(warnings.size() - shown);
    for (const QString& line : wrap(warned, small, QStringLiteral("</small>")))
        html += QStringLiteral("<br><small><font color=\"%1\">%2</font></small>")
                    .arg(warningColor(dark).name(), line.toHtmlEscaped());
    return html;
}

QString ChartStyle::wrappedHtml(const QString& text, const QFont& font, double width)
{
    QStringList lines = wrapLines(text, font, width, QString(), QString());
    for (QString& line : lines)
        line = line.toHtmlEscaped();
    return lines.join(QStringLiteral("<br>"));
}

namespace {
const QString kCurrentRunMarker = QStringLiteral("currentRunMarker");
} // namespace

QString ChartStyle::currentRunLabel(const Run& run)
{
    QStringList parts;
    for (const QString& part : { run.provider, shortGpuName(run.gpuDisplayName()), run.pass, run.workloadSlug }) {
        if (!part.trimmed().isEmpty())
            parts << part;
    }
    return QStringLiteral("current run: ") + parts.join(QStringLiteral(" · "));
}

QScatterSeries* ChartStyle::markCurrentRun(QChart* chart, const RunPtr& run, const QList<QPointF>& points,
    QAbstractAxis* x, QAbstractAxis* y, const QString& readout, bool dark)
{
    if (!run || points.isEmpty() || !x || !y)
        return nullptr;
    auto* ring = new QScatterSeries;
    ring->setObjectName(kCurrentRunMarker);
    // Short, so a legend at the right never elides it; the read-out line names the run (ChartPanel).
    ring->setName(QStringLiteral("current run")); // the legend draws the ring itself
    ring->setProperty("runLabel", currentRunLabel(*run));
    ring->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    ring->setMarkerSize(20);
    ring->setColor(Qt::transparent); // a ring: what it marks stays visible inside it
    // Magenta is none of the provider or verdict colours, and reads on both palettes.
    const QColor ink = dark ? QColor(0xff, 0x5c, 0xf0) : QColor(0xc0, 0x00, 0xa0);
    ring->setBorderColor(ink);
    ring->setPen(QPen(ink, 3));
    ring->append(points);
    chart->addSeries(ring);
    ring->attachAxis(x);
    ring->attachAxis(y);
    QObject::connect(ring, &QScatterSeries::hovered, ring,
        [chart, readout](const QPointF&, bool state) { ChartHover::of(chart)->hover(state ? readout : QString()); });
    QObject::connect(ring, &QScatterSeries::clicked, ring,
        [chart, readout](const QPointF&) { ChartHover::of(chart)->click(readout); });
    return ring;
}

QScatterSeries* ChartStyle::currentRunMarker(const QChart* chart)
{
    for (QAbstractSeries* s : chart->series()) {
        if (s->objectName() == kCurrentRunMarker)
            return qobject_cast<QScatterSeries*>(s);
    }
    return nullptr;
}

void ChartStyle::setLineVisible(QChart* chart, QAbstractSeries* line, QAbstractSeries* band, bool visible)
{
    line->setVisible(visible);
    band->setVisible(visible);
    for (QLegendMarker* m : chart->legend()->markers(line)) {
        m->setVisible(true);
        QColor c = m->labelBrush().color();
        c.setAlphaF(visible ? 1.0 : 0.4);
        m->setLabelBrush(c);
    }
    for (QLegendMarker* m : chart->legend()->markers(band))
        m->setVisible(false);
}

} // namespace kix
