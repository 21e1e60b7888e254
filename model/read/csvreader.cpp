// SPDX-License-Identifier: Apache-2.0
#include "model/read/csvreader.h"

namespace kix {

CsvReader::CsvReader(const QByteArray& bytes)
    : m_bytes(bytes)
    , m_data(m_bytes.constData())
    , m_size(m_bytes.size())
{
    if (m_bytes.startsWith("\xEF\xBB\xBF"))
        m_pos = 3;
}

bool CsvReader::next(CsvRecord& record)
{
    record.fields.clear();
    record.unterminated = false;
    if (m_pos >= m_size)
        return false;
    record.line = m_line;
    CsvField field = startField();
    bool inQuotes = false;
    while (m_pos < m_size) {
        const char c = m_data[m_pos];
        if (inQuotes) {
            if (c == '"' && m_pos + 1 < m_size && m_data[m_pos + 1] == '"') {
                field.text += '"';
                advance();
            } else if (c == '"') {
                inQuotes = false;
            } else {
                field.text += c;
            }
            advance();
        } else if (c == '"' && field.text.empty() && !field.quoted) {
            inQuotes = field.quoted = true;
            advance();
        } else if (c == ',') {
            advance();
            record.fields.push_back(std::move(field));
            field = startField();
        } else if (c == '\n' || c == '\r') {
            advance();
            if (c == '\r' && m_pos < m_size && m_data[m_pos] == '\n')
                advance();
            break;
        } else {
            field.text += c;
            advance();
        }
    }
    record.unterminated = inQuotes;
    record.fields.push_back(std::move(field));
    return true;
}

CsvField CsvReader::startField() const
{
    CsvField f;
    f.line = m_line;
    f.column = m_column;
    return f;
}

void CsvReader::advance()
{
    const char c = m_data[m_pos++];
    // CRLF counts once: its CR only moves the column, its LF ends the line.
    if (c == '\n' || (c == '\r' && (m_pos >= m_size || m_data[m_pos] != '\n'))) {
        ++m_line;
        m_column = 1;
    } else {
        ++m_column;
    }
}

} // namespace kix
