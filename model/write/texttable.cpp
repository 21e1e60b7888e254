// SPDX-License-Identifier: Apache-2.0
#include "model/write/texttable.h"

#include <QIODevice>
#include <QTextStream>

#include <algorithm>

namespace kix {

namespace {

// Appends `text` as UTF-8 (a lone surrogate as U+FFFD) to a std::string or a vector of char; returns its length in
// code points.
template<typename Bytes>
std::size_t appendUtf8(QStringView text, Bytes& out)
{
    std::size_t points = 0;
    const char16_t* p = text.utf16();
    const char16_t* const end = p + text.size();
    while (p < end) {
        const char16_t* ascii = p;
        while (p < end && *p < 0x80)
            ++p;
        if (p != ascii) {
            const std::size_t at = out.size();
            out.resize(at + std::size_t(p - ascii));
            std::copy(ascii, p, out.begin() + std::ptrdiff_t(at));
            points += std::size_t(p - ascii);
            continue;
        }
        char32_t c = *p++;
        if (c >= 0xD800 && c <= 0xDBFF && p < end && *p >= 0xDC00 && *p <= 0xDFFF)
            c = 0x10000 + ((c - 0xD800) << 10) + (char32_t(*p++) - 0xDC00);
        else if (c >= 0xD800 && c <= 0xDFFF)
            c = 0xFFFD;
        ++points;
        if (c < 0x80) {
            out.push_back(char(c));
        } else if (c < 0x800) {
            out.push_back(char(0xC0 | (c >> 6)));
            out.push_back(char(0x80 | (c & 0x3F)));
        } else if (c < 0x10000) {
            out.push_back(char(0xE0 | (c >> 12)));
            out.push_back(char(0x80 | ((c >> 6) & 0x3F)));
            out.push_back(char(0x80 | (c & 0x3F)));
        } else {
            out.push_back(char(0xF0 | (c >> 18)));
            out.push_back(char(0x80 | ((c >> 12) & 0x3F)));
            out.push_back(char(0x80 | ((c >> 6) & 0x3F)));
            out.push_back(char(0x80 | (c & 0x3F)));
        }
    }
    return points;
}

std::size_t codePoints(std::string_view utf8)
{
    return std::size_t(std::count_if(utf8.begin(), utf8.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// `text` padded with spaces to `width` code points: after it, or before it when it is right-aligned.
void appendPadded(std::string& out, std::string_view text, std::size_t width, bool right = false)
{
    const std::size_t have = codePoints(text);
    const std::size_t pad = have < width ? width - have : 0;
    if (right)
        out.append(pad, ' ');
    out.append(text);
    if (!right)
        out.append(pad, ' ');
}

void appendCsvField(std::string& out, std::string_view field)
{
    if (field.find_first_of(",\"\n\r") == std::string_view::npos) {
        out.append(field);
        return;
    }
    out.push_back('"');
    for (char c : field) {
        if (c == '"')
            out.push_back('"');
        out.push_back(c);
    }
    out.push_back('"');
}

constexpr std::size_t kChunk = std::size_t(64) << 10;

constexpr std::size_t kHeaderRow = std::size_t(-1);

// The header line, then each row's, every cell through `appendCell(chunk, column, text)`; handed to `sink` in
// chunks of about kChunk bytes. `textAt(kHeaderRow, column)` is the header's cell.
template<class TextAt, class AppendCell>
void writeLines(const TextTable::Sink& sink, int columns, std::size_t rows, TextAt&& textAt, AppendCell&& appendCell)
{
    std::string chunk;
    chunk.reserve(kChunk + 4096);
    auto line = [&](std::size_t row) {
        for (int c = 0; c < columns; ++c)
            appendCell(chunk, c, textAt(row, c));
        chunk.push_back('\n');
        if (chunk.size() >= kChunk) {
            sink(chunk);
            chunk.clear();
        }
    };
    line(kHeaderRow);
    for (std::size_t r = 0; r < rows; ++r)
        line(r);
    if (!chunk.empty())
        sink(chunk);
}

} // namespace

TextTable::TextTable(QStringList columns)
    : m_columns(std::move(columns))
    , m_widths(std::size_t(m_columns.size()))
{
    for (qsizetype c = 0; c < m_columns.size(); ++c) {
        std::string utf8;
        m_widths[std::size_t(c)] = appendUtf8(m_columns[c], utf8);
        m_header.push_back(std::move(utf8));
    }
}

void TextTable::reserve(std::size_t rows, std::size_t bytesPerRow)
{
    m_bytes.reserve(rows * bytesPerRow);
    m_cellEnds.reserve(rows * m_widths.size());
    m_rowStarts.reserve(rows);
}

void TextTable::addColumnCell(std::string_view utf8, std::size_t width)
{
    if (!m_rowOpen) {
        m_rowStarts.push_back({ m_bytes.size() - utf8.size(), m_cellEnds.size() });
        m_rowOpen = true;
    }
    if (m_cellsInRow >= columnCount()) { // past the columns: dropped
        m_bytes.resize(m_bytes.size() - utf8.size());
        return;
    }
    m_widths[std::size_t(m_cellsInRow)] = std::max(m_widths[std::size_t(m_cellsInRow)], width);
    m_cellEnds.push_back(std::uint32_t(m_bytes.size() - m_rowStarts.back().byte));
    ++m_cellsInRow;
}

void TextTable::addCell(QStringView text)
{
    const std::size_t at = m_bytes.size();
    const std::size_t width = appendUtf8(text, m_bytes);
    addColumnCell(std::string_view(m_bytes.data() + at, m_bytes.size() - at), width);
}

void TextTable::addCell(std::string_view utf8)
{
    m_bytes.insert(m_bytes.end(), utf8.begin(), utf8.end());
    addColumnCell(std::string_view(m_bytes.data() + m_bytes.size() - utf8.size(), utf8.size()), codePoints(utf8));
}

void TextTable::endRow()
{
    if (!m_rowOpen)
        m_rowStarts.push_back({ m_bytes.size(), m_cellEnds.size() });
    while (m_cellsInRow < columnCount()) {
        m_cellEnds.push_back(std::uint32_t(m_bytes.size() - m_rowStarts.back().byte));
        ++m_cellsInRow;
    }
    m_cellsInRow = 0;
    m_rowOpen = false;
}

void TextTable::appendRows(TextTable&& other)
{
    Q_ASSERT(other.columnCount() == columnCount() && !m_rowOpen && !other.m_rowOpen);
    const std::size_t bytes = m_bytes.size();
    const std::size_t cells = m_cellEnds.size();
    m_bytes.insert(m_bytes.end(), other.m_bytes.begin(), other.m_bytes.end());
    m_cellEnds.insert(m_cellEnds.end(), other.m_cellEnds.begin(), other.m_cellEnds.end()); // row-relative
    m_rowStarts.reserve(m_rowStarts.size() + other.m_rowStarts.size());
    for (const RowStart& start : other.m_rowStarts)
        m_rowStarts.push_back({ start.byte + bytes, start.cell + cells });
    for (std::size_t c = 0; c < m_widths.size() && c < other.m_widths.size(); ++c)
        m_widths[c] = std::max(m_widths[c], other.m_widths[c]);
    other = TextTable(other.m_columns);
}

void TextTable::addRow(const QStringList& cells)
{
    for (const QString& cell : cells)
        addCell(QStringView(cell));
    endRow();
}

std::string_view TextTable::cell(std::size_t row, int column) const
{
    const RowStart& start = m_rowStarts[row];
    const std::size_t index = start.cell + std::size_t(column);
    const std::size_t from = column == 0 ? 0 : m_cellEnds[index - 1];
    return std::string_view(m_bytes.data() + start.byte + from, m_cellEnds[index] - from);
}

void TextTable::setRightAligned(int column)
{
    if (column < 0 || column >= columnCount())
        return;
    m_rightAligned.resize(std::size_t(columnCount()), false);
    m_rightAligned[std::size_t(column)] = true;
}

void TextTable::writeAligned(const Sink& sink) const
{
    writeLines(
        sink, columnCount(), rowCount(),
        [&](std::size_t r, int c) { return r == kHeaderRow ? std::string_view(m_header[std::size_t(c)]) : cell(r, c); },
        [&](std::string& chunk, int c, std::string_view text) {
            if (c > 0)
                chunk.append("  ");
            const bool right = std::size_t(c) < m_rightAligned.size() && m_rightAligned[std::size_t(c)];
            if (c + 1 == columnCount() && !right)
                chunk.append(text);
            else
                appendPadded(chunk, text, m_widths[std::size_t(c)], right);
        });
}

void TextTable::writeCsv(const Sink& sink) const
{
    writeLines(
        sink, columnCount(), rowCount(),
        [&](std::size_t r, int c) { return r == kHeaderRow ? std::string_view(m_header[std::size_t(c)]) : cell(r, c); },
        [](std::string& chunk, int c, std::string_view text) {
            if (c > 0)
                chunk.push_back(',');
            appendCsvField(chunk, text);
        });
}

QByteArray alignedRows(const QVector<QStringList>& rows, QStringView indent, const QVector<int>& rightAligned)
{
    if (rows.isEmpty())
        return {};
    qsizetype columns = 0;
    for (const QStringList& row : rows)
        columns = std::max(columns, row.size());
    QStringList header = rows.first();
    while (header.size() < columns)
        header.append(QString());
    TextTable table(header);
    for (const int column : rightAligned)
        table.setRightAligned(column);
    for (qsizetype r = 1; r < rows.size(); ++r)
        table.addRow(rows[r]);
    std::string text;
    table.writeAligned([&](std::string_view chunk) { text.append(chunk); });
    const QByteArray prefix = indent.toUtf8();
    QByteArray out;
    std::size_t from = 0;
    for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) {
        std::size_t end = nl;
        while (end > from && text[end - 1] == ' ')
            --end;
        out += prefix;
        out.append(text.data() + from, qsizetype(end - from));
        out += '\n';
    }
    return out;
}

void writeUtf8(QTextStream& out, std::string_view bytes)
{
    if (QIODevice* device = out.device()) {
        out.flush(); // what was written through the stream first
        device->write(bytes.data(), qint64(bytes.size()));
        return;
    }
    out << QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
}

Utf8Writer::Utf8Writer(QTextStream& out)
    : m_out(out)
{
}

Utf8Writer::~Utf8Writer()
{
    flush();
}

void Utf8Writer::operator()(std::string_view bytes)
{
    if (m_pending.empty() && bytes.size() >= kChunk) {
        writeUtf8(m_out, bytes);
        return;
    }
    m_pending.append(bytes);
    if (m_pending.size() >= kChunk)
        flush();
}

void Utf8Writer::flush()
{
    if (m_pending.empty())
        return;
    writeUtf8(m_out, m_pending);
    m_pending.clear();
}

} // namespace kix
