// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/chartbanner.h"

#include "ui/charts/chartstyle.h"

#include <QStringList>

#include <algorithm>

namespace kix {

QString chartBannerHtml(const ChartInfo& info, bool noRuns, const QString& baselineNote, bool expanded, bool dark)
{
    const QString warningColor = ChartStyle::warningColor(dark).name();
    QStringList lines;
    if (!baselineNote.isEmpty())
        lines << QStringLiteral("<b>%1</b>").arg(baselineNote.toHtmlEscaped());
    const QStringList& warnings = info.warnings;
    QStringList notes; // what was left out, equal digests
    for (const QString& n : std::as_const(info.notes)) {
        if (info.focusKernel.isEmpty() || !n.contains(QLatin1String(" kernels in scope: ")))
            notes << n.toHtmlEscaped();
    }
    // Warnings and notes fold into one line that expands: nine lines of them would push the chart off the window.
    if (!expanded && warnings.size() + notes.size() > 1) {
        QStringList parts;
        if (warnings.size() == 1)
            parts
                << QStringLiteral("<font color=\"%1\">⚠ %2</font>").arg(warningColor, warnings.front().toHtmlEscaped());
        else if (warnings.size() > 1)
            parts << QStringLiteral("<font color=\"%1\">⚠ %2 comparability warnings (%3 …)</font>")
                         .arg(warningColor)
                         .arg(warnings.size())
                         .arg(warnings.front().toHtmlEscaped());
        if (!notes.isEmpty())
            parts << QStringLiteral("%1 note%2")
                         .arg(notes.size())
                         .arg(notes.size() == 1 ? QString() : QStringLiteral("s"));
        lines << parts.join(QStringLiteral(" · ")) + QStringLiteral(" <a href=\"expand\">show all</a>");
    } else {
        for (const QString& w : warnings)
            lines << QStringLiteral("<font color=\"%1\">⚠ %2</font>").arg(warningColor, w.toHtmlEscaped());
        if (!notes.isEmpty())
            lines << QStringLiteral("<small>") + notes.join(QStringLiteral(" · ")) + QStringLiteral("</small>");
        if (warnings.size() + notes.size() > 1)
            lines << QStringLiteral("<a href=\"collapse\">fold the warnings and notes</a>");
    }
    if (noRuns)
        lines << QStringLiteral("No runs in scope: load runs, or clear the filter.");
    else if (info.isEmpty && !notes.isEmpty()) // the first note says why (a speed-up without pairs: what to select)
        lines << QStringLiteral("<b>Nothing to draw:</b> ") + notes.front();
    else if (info.isEmpty)
        lines << QStringLiteral("<b>Nothing to draw.</b>");
    if (!info.focusKernel.isEmpty()) {
        // Many kernels: say which one is charted and offer the others as one-click filters.
        QStringList others;
        for (int i = 1; i < std::min<int>(6, int(info.kernels.size())); ++i)
            others << QStringLiteral("<a href=\"filter:kernel=%1\">%1</a>").arg(info.kernels[i].toHtmlEscaped());
        lines << QStringLiteral("<b>%1 kernels in scope: charting %2</b>, the one with the most runs. "
                                "<a href=\"filter:kernel=%2\">Filter to it</a> or chart another: %3 · "
                                "<a href=\"kind:overview\">every kernel in the Overview</a>")
                     .arg(info.kernels.size())
                     .arg(info.focusKernel.toHtmlEscaped(), others.join(QStringLiteral(", ")));
    }
    return lines.join(QStringLiteral("<br>"));
}

} // namespace kix
