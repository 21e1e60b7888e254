// SPDX-License-Identifier: Apache-2.0
#pragma once
// The charts of an HTML report: the views `kix summary` draws for the runs, then one of every other kind that has
// data, then more Rank cohorts, up to a cap; each as SVG text that can sit inline in HTML.

#include "model/run.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace kix {

struct ReportChart
{
    QString kind; // "speedup", "rank", ...
    QString kindTitle; // "Speed-up", "Rank", ...
    QString title; // plain text
    QStringList warnings;
    QStringList notes;
    bool wide = false; // drawn across the page (its labels did not fit the usual size)
    QString svg; // an inline <svg> element: no XML prolog, no namespace URLs, ids prefixed with `idPrefix`
};

struct ReportCharts
{
    QVector<ReportChart> charts;
    QStringList leftOut; // one line per kind of chart not drawn, and why
};

// At most `maxCharts` charts (each `width` x `height` logical pixels). Needs a QApplication; without one, no
// chart and a line in leftOut saying so.
ReportCharts reportCharts(const RunList& runs, int maxCharts = 8, int width = 740, int height = 600);

// SVG from QSvgGenerator made fit to sit inline in HTML5: the XML prolog and DOCTYPE dropped, the xmlns
// attributes (URLs; HTML's parser puts <svg> in its namespace) dropped, millimetre sizes replaced by the view box's
// pixels, Qt's generic font family and empty groups dropped, every id (and url(#…), href="#…") prefixed with `idPrefix`
// so that several charts do not collide, and any element that names an external resource removed.
QString inlineSvg(const QByteArray& svg, const QString& idPrefix);

} // namespace kix
