// SPDX-License-Identifier: Apache-2.0
#pragma once
// Cuts streamed text (pieces of any size) into lines of at most a given length. A longer line is not kept: it is
// reported once, by index, and skipped to its end, so one hostile line never grows the buffer past the limit.

#include <QtGlobal>

#include <functional>
#include <string>
#include <string_view>

namespace kix {

class LineSplitter
{
public:
    // `line(text, index)` gets each line without its '\n' (a '\r' before it stays); `tooLong(index)` each line
    // past maxLineBytes. Either returns false to stop.
    using LineFn = std::function<bool(std::string_view text, int index)>;
    using TooLongFn = std::function<bool(int index)>;
    LineSplitter(qint64 maxLineBytes, LineFn line, TooLongFn tooLong);

    bool feed(std::string_view piece);
    bool finish(); // the last line, when the text does not end with '\n'
    int lines() const { return m_index; }

private:
    bool endLine();

    qint64 m_max;
    LineFn m_line;
    TooLongFn m_tooLong;
    std::string m_pending;
    bool m_skipping = false;
    int m_index = 0;
};

} // namespace kix
