#include "model/jsonreader.h"

#include <vector>

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

// Builds the DOM like nlohmann's own parser, and also counts depth and notices duplicate keys.
class DomBuilder : public nlohmann::json_sax<json>
{
public:
    DomBuilder(json& root, int maxDepth, JsonReadResult& result)
        : m_root(root)
        , m_maxDepth(maxDepth)
        , m_result(result)
    {
    }

    bool null() override { return put(json(nullptr)); }
    bool boolean(bool v) override { return put(json(v)); }
    bool number_integer(number_integer_t v) override { return put(json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return put(json(v)); }
    bool number_float(number_float_t v, const string_t&) override { return put(json(v)); }
    bool string(string_t& v) override { return put(json(std::move(v))); }
    bool binary(binary_t& v) override { return put(json::binary(std::move(v))); }

    bool start_object(std::size_t) override { return open(json::value_t::object); }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(json::value_t::array); }
    bool end_array() override { return close(); }

    bool key(string_t& k) override
    {
        json& object = *m_stack.back();
        if (object.contains(k))
            m_result.duplicateKeys.append(currentPointer() + QLatin1Char('/') + pointerToken(k));
        m_key = std::move(k);
        return true;
    }

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
    bool put(json&& value)
    {
        if (m_stack.empty()) {
            m_root = std::move(value);
            return true;
        }
        json& parent = *m_stack.back();
        if (parent.is_array()) {
            parent.push_back(std::move(value));
        } else {
            parent[m_key] = std::move(value);
        }
        return true;
    }

    bool open(json::value_t type)
    {
        if (static_cast<int>(m_stack.size()) >= m_maxDepth) {
            m_result.tooDeep = true;
            m_result.error = QStringLiteral("nesting deeper than %1 levels").arg(m_maxDepth);
            return false;
        }
        json* child = nullptr;
        if (m_stack.empty()) {
            m_root = json(type);
            child = &m_root;
        } else {
            json& parent = *m_stack.back();
            if (parent.is_array()) {
                m_path.push_back(QString::number(parent.size()));
                parent.push_back(json(type));
                child = &parent.back();
            } else {
                m_path.push_back(pointerToken(m_key));
                json& slot = parent[m_key];
                slot = json(type);
                child = &slot;
            }
        }
        m_stack.push_back(child);
        return true;
    }

    bool close()
    {
        m_stack.pop_back();
        if (!m_path.empty() && m_stack.size() < m_path.size() + 1)
            m_path.pop_back();
        return true;
    }

    QString currentPointer() const
    {
        QString pointer;
        for (const QString& token : m_path)
            pointer += QLatin1Char('/') + token;
        return pointer;
    }

    json& m_root;
    int m_maxDepth;
    JsonReadResult& m_result;
    std::vector<json*> m_stack;
    std::vector<QString> m_path; // tokens of the containers below the root
    std::string m_key;
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
    DomBuilder builder(result.value, maxDepth, result);
    try {
        result.ok = json::sax_parse(begin, end, &builder, nlohmann::detail::input_format_t::json, true, false);
    } catch (const std::exception& ex) { // allocation failures and the like: refuse, never crash
        result.ok = false;
        result.error = QStringLiteral("could not read JSON: ") + QString::fromLocal8Bit(ex.what());
    }
    if (!result.ok) {
        if (result.error.isEmpty())
            result.error = QStringLiteral("not valid JSON");
        if (!result.tooDeep)
            lineAndColumn(begin, end, result.errorOffset, result.line, result.column);
        result.value = nullptr;
    }
    return result;
}

} // namespace kix
