// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSet>
#include <QString>

#include <array>

namespace kix {

// The distinct values of a text field over many runs: a value whose characters are those of one of the values
// added last (the same memory: runs share interned strings) is not hashed again, so a million runs that share a few
// values cost a pointer comparison each. Only for strings that stay alive while this is used (the runs' fields).
class DistinctText
{
public:
    void insert(const QString& text)
    {
        for (const Seen& s : m_recent) {
            if (s.data && s.data == text.constData() && s.size == text.size())
                return;
        }
        m_values.insert(text);
        m_recent[m_next] = { text.constData(), text.size() };
        m_next = (m_next + 1) % m_recent.size();
    }
    const QSet<QString>& values() const { return m_values; }

private:
    struct Seen
    {
        const QChar* data = nullptr;
        qsizetype size = -1;
    };
    QSet<QString> m_values;
    std::array<Seen, 4> m_recent {}; // the values added last: runs alternate between a few (providers)
    size_t m_next = 0;
};

} // namespace kix
