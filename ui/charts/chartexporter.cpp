// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/chartexporter.h"

#include "model/write/runwriter.h"

#include <QApplication>
#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTextDocumentFragment>

namespace kix {

namespace {

// Hosts a chart in an unshown view laid out at `size` logical pixels.
class LaidOutChart
{
public:
    LaidOutChart(std::unique_ptr<QChart> chart, const QSize& size)
        : m_chart(chart.get())
        , m_view(chart.release()) // the view's scene owns the chart
    {
        m_view.setAttribute(Qt::WA_DontShowOnScreen);
        m_view.setRenderHint(QPainter::Antialiasing);
        m_view.setFrameShape(QFrame::NoFrame);
        m_view.setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_view.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_view.resize(size);
        m_view.grab(); // sends the pending resize and polish events
        m_chart->resize(QSizeF(size));
        // Twice: the first pass sizes the title, legend and axes, the posted events then lay out their contents.
        if (QGraphicsLayout* layout = m_chart->layout())
            layout->activate();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest); // not other posted work: no re-entry
        if (QGraphicsLayout* layout = m_chart->layout())
            layout->activate();
    }

    void render(QPainter* painter, const QRectF& target)
    {
        m_view.scene()->render(painter, target, QRectF(QPointF(0, 0), m_chart->size()), Qt::IgnoreAspectRatio);
    }

private:
    QChart* m_chart;
    QChartView m_view;
};

QSize logicalSize(const QSize& pixels, double dpi)
{
    const double scale = dpi / 96.0;
    return QSize(std::max(1, qRound(pixels.width() / scale)), std::max(1, qRound(pixels.height() / scale)));
}

} // namespace

std::optional<ChartExporter::Format> ChartExporter::formatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return Format::Png;
    if (suffix == QLatin1String("svg"))
        return Format::Svg;
    if (suffix == QLatin1String("pdf"))
        return Format::Pdf;
    return std::nullopt;
}

QImage ChartExporter::renderImage(std::unique_ptr<QChart> chart, const QSize& pixels, double dpi)
{
    if (dpi <= 0)
        dpi = 96;
    const QSize logical = logicalSize(pixels, dpi);
    LaidOutChart laidOut(std::move(chart), logical);
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    const int dotsPerMeter = qRound(dpi / 0.0254);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    laidOut.render(&painter, QRectF(QPointF(0, 0), QSizeF(pixels)));
    painter.end();
    return image;
}

QByteArray ChartExporter::renderPng(std::unique_ptr<QChart> chart, const QSize& pixels, double dpi)
{
    const QImage image = renderImage(std::move(chart), pixels, dpi);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

QByteArray ChartExporter::renderSvg(std::unique_ptr<QChart> chart, const QSize& size, const QString& title)
{
    LaidOutChart laidOut(std::move(chart), size);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setResolution(96);
    generator.setTitle(title.toHtmlEscaped()); // QSvgGenerator writes the title as it is, markup and all
    generator.setDescription(QStringLiteral("kix chart"));
    QPainter painter(&generator);
    laidOut.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    return bytes;
}

QByteArray ChartExporter::renderPdf(std::unique_ptr<QChart> chart, const QSize& size, const QString& title)
{
    LaidOutChart laidOut(std::move(chart), size);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter writer(&buffer);
    writer.setTitle(title);
    writer.setCreator(QStringLiteral("kix"));
    writer.setResolution(96); // painter units = logical pixels
    writer.setPageSize(QPageSize(QSizeF(size) * 72.0 / 96.0, QPageSize::Point, QString(), QPageSize::ExactMatch));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter painter(&writer);
    laidOut.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    return bytes;
}

bool ChartExporter::exportChart(
    std::unique_ptr<QChart> chart, const QString& path, const QSize& size, double dpi, QString* error)
{
    const std::optional<Format> format = formatForPath(path);
    if (!format) {
        if (error)
            *error = QStringLiteral("%1: unknown chart format (use .png, .svg or .pdf)").arg(path);
        return false;
    }
    if (size.width() < 16 || size.height() < 16 || size.width() > 20000 || size.height() > 20000) {
        if (error)
            *error = QStringLiteral("%1x%2: the size must be between 16 and 20000 pixels a side")
                         .arg(size.width())
                         .arg(size.height());
        return false;
    }
    // The title is rich text (subtitles, warnings); the document title is its plain text.
    QString title = QTextDocumentFragment::fromHtml(chart->title()).toPlainText().simplified();
    if (title.isEmpty())
        title = QStringLiteral("kix chart");
    QByteArray bytes;
    switch (*format) {
    case Format::Png:
        bytes = renderPng(std::move(chart), size, dpi);
        break;
    case Format::Svg:
        bytes = renderSvg(std::move(chart), size, title);
        break;
    case Format::Pdf:
        bytes = renderPdf(std::move(chart), size, title);
        break;
    }
    if (bytes.isEmpty()) {
        if (error)
            *error = QStringLiteral("%1: rendering the chart failed").arg(path);
        return false;
    }
    return writeFileAtomically(path, bytes, error);
}

void ChartExporter::copyToClipboard(std::unique_ptr<QChart> chart, const QSize& size, double devicePixelRatio)
{
    const double dpr = devicePixelRatio > 0 ? devicePixelRatio : 1.0;
    const QSize pixels(qRound(size.width() * dpr), qRound(size.height() * dpr));
    QImage image = renderImage(std::move(chart), pixels, 96 * dpr);
    image.setDevicePixelRatio(dpr);
    QApplication::clipboard()->setImage(image);
}

} // namespace kix
