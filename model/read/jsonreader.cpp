// SPDX-License-Identifier: Apache-2.0
#include "model/read/jsonreader.h"

namespace kix {

QString pointerToken(const std::string& key)
{
    QString token = QString::fromStdString(key);
    token.replace(QLatin1Char('~'), QLatin1String("~0"));
    token.replace(QLatin1Char('/'), QLatin1String("~1"));
    return token;
}

namespace {

using json = nlohmann::json;

// Follows nlohmann's strict parser without building anything: counts depth and keeps the error.
class Checker : public nlohmann::json_sax<json>
{
public:
    Checker(int maxDepth, JsonReadResult& result)
        : m_maxDepth(maxDepth)
        , m_result(result)
    {
    }

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool key(string_t&) override { return true; }
    bool start_object(std::size_t) override { return open(); }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(); }
    bool end_array() override { return close(); }

    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override
    {
        m_result.errorOffset = position > 0 ? position - 1 : 0;
        // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error while parsing ..."
        std::string what = ex.what();
        if (!what.empty() && what.front() == '[') {
            const auto bracket = what.find("] ");
            if (bracket != std::string::npos)
                what = what.substr(bracket + 2);
        }
        if (what.rfind("parse error", 0) == 0) {
            const auto colon = what.find(": ");
            if (colon != std::string::npos)
                what = what.substr(colon + 2);
        }
        m_result.error = QStringLiteral("not valid JSON: ") + QString::fromStdString(what);
        return false;
    }

private:
    bool open()
    {
        if (m_depth >= m_maxDepth) {
            m_result.tooDeep = true;
            m_result.error = QStringLiteral("nesting deeper than %1 levels").arg(m_maxDepth);
            return false;
        }
        ++m_depth;
        return true;
    }
    bool close()
    {
        --m_depth;
        return true;
    }

    int m_maxDepth;
    int m_depth = 0;
    JsonReadResult& m_result;
};

void lineAndColumn(const char* begin, const char* end, std::size_t offset, int& line, int& column)
{
    line = 1;
    column = 1;
    const char* stop = begin + std::min<std::size_t>(offset, static_cast<std::size_t>(end - begin));
    for (const char* p = begin; p < stop; ++p) {
        if (*p == '\n') {
            ++line;
            column = 1;
        } else if ((static_cast<unsigned char>(*p) & 0xC0) != 0x80) { // count characters, not UTF-8 bytes
            ++column;
        }
    }
}

} // namespace

JsonReadResult readJson(const char* begin, const char* end, int maxDepth)
{
    JsonReadResult result;
    Checker checker(maxDepth, result);
    try {
        result.ok = json::sax_parse(begin, end, &checker, nlohmann::detail::input_format_t::json, true, false);
    } catch (const std::exception& ex) { // allocation failures and the like: refuse, never crash
        result.ok = false;
        result.error = QStringLiteral("could not read JSON: ") + QString::fromLocal8Bit(ex.what());
    }
    if (!result.ok) {
        if (result.error.isEmpty())
            result.error = QStringLiteral("not valid JSON");
        if (!result.tooDeep)
            lineAndColumn(begin, end, result.errorOffset, result.line, result.column);
    }
    return result;
}

} // namespace kix
