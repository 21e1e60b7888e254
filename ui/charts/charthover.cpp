// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/charthover.h"

#include <QChart>
#include <QCursor>
#include <QToolTip>

namespace kix {

ChartHover* ChartHover::of(QChart* chart)
{
    auto* hover = chart->findChild<ChartHover*>(QString(), Qt::FindDirectChildrenOnly);
    return hover ? hover : new ChartHover(chart);
}

void ChartHover::hover(const QString& text)
{
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(QCursor::pos(), text);
    emit hovered(text);
}

void ChartHover::click(const QString& text)
{
    if (!text.isEmpty())
        emit clicked(text);
}

} // namespace kix
