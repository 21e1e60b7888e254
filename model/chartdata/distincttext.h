// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSet>
#include <QString>

namespace kix {

// The distinct values of a text field over many runs: a value whose characters are those of the value added
// last (the same memory: runs share interned strings) is not hashed again, so a million runs that share a few
// values cost a pointer comparison each. Only for strings that stay alive while this is used (the runs' fields).
class DistinctText
{
public:
    void insert(const QString& text)
    {
        if (m_last && text.constData() == m_last && text.size() == m_lastSize)
            return;
        m_values.insert(text);
        m_last = text.constData();
        m_lastSize = text.size();
    }
    const QSet<QString>& values() const { return m_values; }

private:
    QSet<QString> m_values;
    const QChar* m_last = nullptr;
    qsizetype m_lastSize = -1;
};

} // namespace kix
