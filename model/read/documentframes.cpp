// SPDX-License-Identifier: Apache-2.0
#include "model/read/documentframes.h"

#include <cstring>

namespace kix {

bool firstDocumentSpansLines(const char* begin, const char* end)
{
    const char* p = begin;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        ++p;
    if (p == end || (*p != '{' && *p != '['))
        return false;
    const char* const lineEnd = static_cast<const char*>(std::memchr(p, '\n', std::size_t(end - p)));
    if (!lineEnd)
        return false;
    int depth = 0;
    bool inString = false;
    for (const char* q = p; q < lineEnd; ++q) {
        const char c = *q;
        if (inString) {
            if (c == '\\')
                ++q;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return false; // it ends on its line: JSON Lines
        }
    }
    return true;
}

int findRecordEnds(const char* begin, const char* end, std::vector<std::size_t>& ends)
{
    int depth = 0;
    int newlines = 0;
    bool inString = false;
    for (const char* p = begin; p < end; ++p) {
        const char c = *p;
        if (inString) {
            if (c == '\\' && p + 1 < end && p[1] != '\n') {
                ++p;
            } else if (c == '"') {
                inString = false;
            } else if (c == '\n') {
                inString = false; // a raw newline cannot be in a JSON string: the document is broken, read on
                --p; // this newline is seen again outside the string
            }
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            break;
        case '{':
        case '[':
            ++depth;
            break;
        case '}':
        case ']':
            if (depth > 0)
                --depth;
            break;
        case '\n':
            ++newlines;
            if (depth == 0 || (p + 1 < end && p[1] == '{')) {
                ends.push_back(std::size_t(p - begin));
                depth = 0;
            }
            break;
        default:
            break;
        }
    }
    return newlines;
}

bool holdsDocumentsOverLines(const char* begin, const char* end)
{
    if (!firstDocumentSpansLines(begin, end))
        return false;
    std::vector<std::size_t> ends;
    findRecordEnds(begin, end, ends);
    int documents = 0;
    const char* from = begin;
    for (std::size_t i = 0; i <= ends.size(); ++i) {
        const char* const to = i < ends.size() ? begin + ends[i] : end;
        const char* p = from;
        while (p < to && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
            ++p;
        if (p < to && *p != '{')
            return false; // something else between them: one document with trailing text, not documents
        documents += p < to ? 1 : 0;
        from = to + 1;
    }
    return documents >= 2;
}

} // namespace kix
