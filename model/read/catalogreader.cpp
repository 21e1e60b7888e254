// SPDX-License-Identifier: Apache-2.0
#include "model/read/catalogreader.h"

#include "model/read/catalogrows.h"
#include "model/read/documentlines.h"
#include "model/read/linesplitter.h"

#include <QStringList>

#include <algorithm>
#include <cstring>

namespace kix::catalog {

// Text that is not a catalog, in a compressed file: kernelindex JSON Lines, parsed a batch of lines at a time.
class Lines
{
public:
    Lines(const QString& file, const ParseLimits& limits, ParseResult& result)
        : m_file(file)
        , m_limits(limits)
        , m_result(result)
    {
    }
    void line(std::string_view text, int index)
    {
        if (m_text.empty())
            m_first = index;
        // lines skipped in between (too long, reported) keep the numbering: blank lines hold their place
        while (m_first + m_count < index) {
            m_text += '\n';
            ++m_count;
        }
        m_text.append(text.data(), text.size());
        m_text += '\n';
        ++m_count;
        if (m_text.size() >= (std::size_t(2) << 20))
            flush();
    }
    void flush()
    {
        if (m_text.empty())
            return;
        parsing::parseJsonLinesRange(m_text.data(), m_text.data() + m_text.size(), m_first, m_file, m_limits, m_result);
        m_text.clear();
        m_count = 0;
    }

private:
    const QString& m_file;
    const ParseLimits& m_limits;
    ParseResult& m_result;
    std::string m_text;
    int m_first = 0;
    int m_count = 0;
};

// Decides from the first non-blank line whether the text is a catalog or JSON Lines, and feeds the lines on.
class Router
{
public:
    Router(const QString& file, const ParseLimits& limits, ParseResult& result)
        : m_file(file)
        , m_result(result)
        , m_catalog(file, limits, result)
        , m_lines(file, limits, result)
        , m_splitter(
              Catalog::kMaxLineBytes, [this](std::string_view text, int index) { return line(text, index); },
              [this](int index) {
                  m_catalog.tooLong(index);
                  return true;
              })
        , m_limits(limits)
    {
    }
    LineSplitter& splitter() { return m_splitter; }
    void finish()
    {
        m_splitter.finish();
        if (m_mode == Mode::Catalog) {
            m_catalog.finish();
        } else if (m_mode == Mode::Lines) {
            m_lines.flush();
        } else if (m_mode == Mode::Unknown && !m_result.hasErrors()) {
            m_result.diagnostics.append(makeError(m_file, {}, QStringLiteral("the file is empty")));
        }
    }

private:
    bool line(std::string_view text, int index)
    {
        if (m_limits.cancel && m_limits.cancel->load(std::memory_order_relaxed))
            return false;
        if (m_mode == Mode::Unknown) {
            if (isBlank(text))
                return true;
            if (std::memchr(text.data(), 0, std::min<std::size_t>(text.size(), 4096))) {
                m_mode = Mode::Refused; // one error, not one per "line" of a binary file
                m_result.diagnostics.append(makeError(m_file, {},
                    QStringLiteral("a Zstandard-compressed file that holds binary data, not a catalog export or "
                                   "JSON Lines: kix reads .zst catalog exports and kernelindex JSON Lines")));
                return false;
            }
            m_mode = looksLikeCatalog(text.data(), text.data() + text.size()) ? Mode::Catalog : Mode::Lines;
            const std::string_view head = text.substr(text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0);
            const char* first = skipSpace(head.data(), head.data() + head.size());
            if (m_mode == Mode::Lines && first < head.data() + head.size()
                && *first != '{') // the lines are still read: a good one loads
                m_result.diagnostics.append(makeError(m_file, {},
                    QStringLiteral("decompressed from Zstandard, the text is neither a catalog export nor "
                                   "kernelindex JSON Lines (its first line does not start with '{')")));
        }
        if (m_mode == Mode::Catalog)
            return m_catalog.line(text, index);
        m_lines.line(text, index);
        return true;
    }

    enum class Mode { Unknown, Catalog, Lines, Refused };
    const QString& m_file;
    ParseResult& m_result;
    Catalog m_catalog;
    Lines m_lines;
    LineSplitter m_splitter;
    const ParseLimits& m_limits;
    Mode m_mode = Mode::Unknown;
};

} // namespace kix::catalog

namespace kix {

bool looksLikeCatalog(const char* begin, const char* end)
{
    const char* p = catalog::skipSpace(begin, end);
    if (p < end && *p == '\xEF' && end - p >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p = catalog::skipSpace(p + 3, end);
    if (p == end || *p != '{')
        return false;
    p = catalog::skipSpace(p + 1, end);
    return end - p >= 7 && std::memcmp(p, "\"table\"", 7) == 0;
}

void parseCatalogText(
    const char* begin, const char* end, const QString& file, const ParseLimits& limits, ParseResult& result)
{
    catalog::Router router(file, limits, result);
    if (router.splitter().feed(std::string_view(begin, std::size_t(end - begin))))
        router.finish();
}

LineRouter::LineRouter(const QString& file, const ParseLimits& limits, ParseResult& result)
    : m_router(std::make_unique<catalog::Router>(file, limits, result))
{
}

LineRouter::~LineRouter() = default;

bool LineRouter::feed(std::string_view piece)
{
    return m_router->splitter().feed(piece);
}

void LineRouter::finish()
{
    m_router->finish();
}

} // namespace kix
