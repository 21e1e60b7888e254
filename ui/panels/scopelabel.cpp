// SPDX-License-Identifier: Apache-2.0
// ScopeLabel: the chart panel's scope text, fitted to the room the controls' row leaves it.
#include "ui/panels/scopelabel.h"

namespace kix {

void ScopeLabel::setScope(const QString& scope)
{
    m_scope = scope;
    setToolTip(scope);
    fit();
}

void ScopeLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    fit();
}

void ScopeLabel::fit()
{
    QString shorter = m_scope;
    shorter.remove(QStringLiteral("all ")).remove(QStringLiteral("shown "));
    const QString count = m_scope.section(QLatin1Char(' '), m_scope.startsWith(QLatin1String("all ")) ? 1 : 0, 0);
    const int room = contentsRect().width();
    QString text = count;
    if (fontMetrics().horizontalAdvance(m_scope) <= room)
        text = m_scope;
    else if (fontMetrics().horizontalAdvance(shorter) <= room)
        text = shorter;
    if (QLabel::text() != text)
        setText(text);
}

} // namespace kix
