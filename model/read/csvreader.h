// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>

#include <string>
#include <vector>

namespace kix {

struct CsvField
{
    std::string text; // unquoted, "" unescaped; bytes as in the input
    int line = 0; // where the field starts, 1-based
    int column = 0; // in bytes, 1-based
    bool quoted = false;
};

struct CsvRecord
{
    std::vector<CsvField> fields;
    int line = 0; // where the record starts, 1-based
    bool unterminated = false; // a quoted field ran to the end of the input

    // An empty line: one empty, unquoted field.
    bool blank() const { return fields.size() == 1 && fields[0].text.empty() && !fields[0].quoted; }
};

// Reads RFC 4180 CSV one record at a time: quoted fields with "" escapes, commas and line breaks inside quotes,
// LF, CRLF or CR line ends, and a leading UTF-8 BOM. Lenient where the RFC is strict: a quote inside an unquoted
// field, or text after a closing quote, is kept as text. Never throws except std::bad_alloc.
class CsvReader
{
public:
    explicit CsvReader(const QByteArray& bytes);

    // The next record, or false at the end of the input.
    bool next(CsvRecord& record);

private:
    CsvField startField() const;
    void advance();

    QByteArray m_bytes; // shared, not copied
    const char* m_data;
    qsizetype m_size;
    qsizetype m_pos = 0;
    int m_line = 1;
    int m_column = 1;
};

} // namespace kix
