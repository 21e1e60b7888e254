// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/write/largepages.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QStringView>
#include <QVector>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

class QTextStream;

namespace kix {

// Rows of text cells, kept as UTF-8 in one buffer (no allocation per cell or row), written as an aligned table or
// as CSV in chunks: a command prints 100k rows at the speed it reads them. Column widths are counted in code
// points as the cells are added.
class TextTable
{
public:
    using Sink = std::function<void(std::string_view)>;

    explicit TextTable(QStringList columns);

    void addCell(QStringView text);
    void addCell(std::string_view utf8);
    void endRow(); // cells past the columns are dropped; missing ones are empty
    void addRow(const QStringList& cells);
    void reserve(std::size_t rows, std::size_t bytesPerRow);
    // Moves `other`'s rows after this table's (the same columns; neither with a row open): how rows built in
    // parts on several threads become one table.
    void appendRows(TextTable&& other);

    int columnCount() const { return int(m_columns.size()); }
    std::size_t rowCount() const { return m_rowStarts.size(); }
    std::string_view cell(std::size_t row, int column) const;
    const QStringList& columns() const { return m_columns; }

    // Right-aligns a column in writeAligned (numbers); the others are left-aligned.
    void setRightAligned(int column);
    // Columns padded to their widest cell, two spaces apart, the last one not padded when it is left-aligned; the
    // header first.
    void writeAligned(const Sink& sink) const;
    // RFC 4180, as csvLine() writes it: a field quoted when it holds a comma, a quote or a line break.
    void writeCsv(const Sink& sink) const;

private:
    void addColumnCell(std::string_view utf8, std::size_t width);

    QStringList m_columns;
    std::vector<std::string> m_header; // UTF-8
    struct RowStart
    {
        std::size_t byte; // of its first cell in m_bytes
        std::size_t cell; // index of its first cell in m_cellEnds
    };
    // A table of 100k rows holds about 30 MB here: in large pages (largepages.h).
    std::vector<char, LargePageAllocator<char>> m_bytes; // every cell's UTF-8, one after another
    std::vector<std::uint32_t, LargePageAllocator<std::uint32_t>> m_cellEnds; // each cell's end, from its row's start
    std::vector<RowStart, LargePageAllocator<RowStart>> m_rowStarts;
    std::vector<std::size_t> m_widths;
    std::vector<bool> m_rightAligned;
    int m_cellsInRow = 0;
    bool m_rowOpen = false;
};

// `rows` (the first one a header like any other) as columns two spaces apart, left-aligned but for those in
// `rightAligned`, each line after `indent` and without trailing spaces: the text tables of the reports and commands
// (rank, compare, resolve, history, diff, overview, tool comparisons, bench).
QByteArray alignedRows(
    const QVector<QStringList>& rows, QStringView indent = {}, const QVector<int>& rightAligned = {});

// Writes UTF-8 to `out`: straight to its device when it has one (stdout), else through its string.
void writeUtf8(QTextStream& out, std::string_view bytes);
// A sink that gathers chunks of about 64 KiB before writing them to `out`; call flush() (or let it go) at the end.
class Utf8Writer
{
public:
    explicit Utf8Writer(QTextStream& out);
    ~Utf8Writer();
    Utf8Writer(const Utf8Writer&) = delete;
    Utf8Writer& operator=(const Utf8Writer&) = delete;
    void operator()(std::string_view bytes);
    void flush();

private:
    QTextStream& m_out;
    std::string m_pending;
};

} // namespace kix
