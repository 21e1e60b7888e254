// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to the HTML report (htmlreport, reportsections): its markup's building blocks, every text escaped.

#include <QString>
#include <QStringList>

namespace kix::reporthtml {

QString esc(const QString& text);
QString num(qint64 n);
QString plural(qint64 n, const char* one, const char* many);

// A table row: each cell escaped; cells starting with \x01 are numeric (right-aligned).
class Table
{
public:
    Table(QString& html, const QStringList& header, const QString& cssClass = {})
        : m_html(html)
    {
        m_html += cssClass.isEmpty() ? QStringLiteral("<table>\n<thead><tr>")
                                     : QStringLiteral("<table class=\"%1\">\n<thead><tr>").arg(cssClass);
        for (const QString& h : header)
            m_html += QStringLiteral("<th>") + esc(h) + QStringLiteral("</th>");
        m_html += QStringLiteral("</tr></thead>\n<tbody>\n");
    }
    ~Table() { close(); }
    // Ends the table (once): text after it must not land inside it, where a browser would move it above the table.
    void close()
    {
        if (!m_closed)
            m_html += QStringLiteral("</tbody>\n</table>\n");
        m_closed = true;
    }
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;

    static QString number(const QString& text) { return QLatin1Char('\x01') + text; }
    // `cellClass`: a class for one cell given by its index (the verdict's colour).
    void row(const QStringList& cells, const QString& rowClass = {}, int classCell = -1, const QString& cellClass = {})
    {
        m_html += rowClass.isEmpty() ? QStringLiteral("<tr>") : QStringLiteral("<tr class=\"%1\">").arg(rowClass);
        for (int i = 0; i < cells.size(); ++i) {
            const bool numeric = cells[i].startsWith(QLatin1Char('\x01'));
            const QString text = numeric ? cells[i].mid(1) : cells[i];
            QString cls = numeric ? QStringLiteral("n") : QString();
            if (i == classCell && !cellClass.isEmpty())
                cls += (cls.isEmpty() ? QString() : QStringLiteral(" ")) + cellClass;
            m_html += cls.isEmpty() ? QStringLiteral("<td>") : QStringLiteral("<td class=\"%1\">").arg(cls);
            m_html += esc(text) + QStringLiteral("</td>");
        }
        m_html += QStringLiteral("</tr>\n");
    }

private:
    QString& m_html;
    bool m_closed = false;
};

void para(QString& html, const QString& text, const QString& cssClass = {});
void list(QString& html, const QStringList& items, const QString& cssClass = {});

} // namespace kix::reporthtml
