// SPDX-License-Identifier: Apache-2.0
// The HTML report's markup building blocks: escaped text, numbers, paragraphs and lists.
#include "ui/report/reportmarkup.h"

#include <QLocale>

namespace kix::reporthtml {

QString esc(const QString& text)
{
    return text.toHtmlEscaped();
}

QString num(qint64 n)
{
    return QLocale::c().toString(n);
}

QString plural(qint64 n, const char* one, const char* many)
{
    return num(n) + QLatin1Char(' ') + QLatin1String(n == 1 ? one : many);
}

void para(QString& html, const QString& text, const QString& cssClass)
{
    html += cssClass.isEmpty() ? QStringLiteral("<p>") : QStringLiteral("<p class=\"%1\">").arg(cssClass);
    html += esc(text) + QStringLiteral("</p>\n");
}

void list(QString& html, const QStringList& items, const QString& cssClass)
{
    if (items.isEmpty())
        return;
    html += cssClass.isEmpty() ? QStringLiteral("<ul>\n") : QStringLiteral("<ul class=\"%1\">\n").arg(cssClass);
    for (const QString& item : items)
        html += QStringLiteral("<li>") + esc(item) + QStringLiteral("</li>\n");
    html += QStringLiteral("</ul>\n");
}

} // namespace kix::reporthtml
