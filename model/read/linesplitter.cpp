// SPDX-License-Identifier: Apache-2.0
#include "model/read/linesplitter.h"

#include <cstring>
#include <utility>

namespace kix {

LineSplitter::LineSplitter(qint64 maxLineBytes, LineFn line, TooLongFn tooLong)
    : m_max(maxLineBytes)
    , m_line(std::move(line))
    , m_tooLong(std::move(tooLong))
{
}

bool LineSplitter::endLine()
{
    const int index = m_index++;
    const bool skipped = m_skipping;
    m_skipping = false;
    if (skipped)
        return true; // reported when it passed the limit
    const bool go = m_line(m_pending, index);
    m_pending.clear();
    return go;
}

bool LineSplitter::feed(std::string_view piece)
{
    while (!piece.empty()) {
        const char* nl = static_cast<const char*>(std::memchr(piece.data(), '\n', piece.size()));
        const std::size_t take = nl ? std::size_t(nl - piece.data()) : piece.size();
        if (!m_skipping) {
            if (qint64(m_pending.size() + take) > m_max) {
                m_skipping = true;
                m_pending.clear();
                if (!m_tooLong(m_index))
                    return false;
            } else if (nl && m_pending.empty()) {
                // the whole line is in this piece: no copy
                const int index = m_index++;
                if (!m_line(piece.substr(0, take), index))
                    return false;
                piece.remove_prefix(take + 1);
                continue;
            } else {
                m_pending.append(piece.data(), take);
            }
        }
        if (!nl)
            return true;
        if (!endLine())
            return false;
        piece.remove_prefix(take + 1);
    }
    return true;
}

bool LineSplitter::finish()
{
    if (m_pending.empty() && !m_skipping)
        return true;
    return endLine();
}

} // namespace kix
