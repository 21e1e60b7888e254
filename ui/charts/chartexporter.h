// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace kix {

// Renders a chart to PNG, SVG (text kept as text), PDF (text kept as text) or the clipboard. Each call takes a
// fresh chart and lays it out in an unshown view at the asked size first: a chart that was never laid out renders
// tiny into QSvgGenerator and QPdfWriter.
//
// Sizes: `pixels` is the PNG's size in pixels; the chart is laid out at pixels * 96 / dpi logical pixels and drawn
// at dpi / 96 scale, so a 300 dpi figure has print-sized text. SVG and PDF are laid out at `size` logical pixels
// (1/96 inch).
class ChartExporter
{
public:
    enum class Format { Png, Svg, Pdf };
    static std::optional<Format> formatForPath(const QString& path);

    static QImage renderImage(std::unique_ptr<QChart> chart, const QSize& pixels, double dpi = 96);
    static QByteArray renderPng(std::unique_ptr<QChart> chart, const QSize& pixels, double dpi = 96);
    static QByteArray renderSvg(std::unique_ptr<QChart> chart, const QSize& size, const QString& title);
    static QByteArray renderPdf(std::unique_ptr<QChart> chart, const QSize& size, const QString& title);

    // Writes by the path's extension (.png, .svg, .pdf) atomically; false and `error` on failure.
    static bool exportChart(
        std::unique_ptr<QChart> chart, const QString& path, const QSize& size, double dpi, QString* error);
    // Image (and SVG for applications that take it) at `size` logical pixels and the screen's pixel ratio.
    static void copyToClipboard(std::unique_ptr<QChart> chart, const QSize& size, double devicePixelRatio);
};

} // namespace kix
