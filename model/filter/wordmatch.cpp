// SPDX-License-Identifier: Apache-2.0
// A word of the filter text against a run, field by field: runs keep no search text (a million of them would hold
// ~380 MB of it), and the fields that runs share answer once per string.
#include "model/filter/wordmatch.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace kix {

namespace {

// The same over one field's lower-case UTF-8, as the run's search text holds it (Run::searchText()).
bool loweredContains(std::string_view hay, std::string_view needle)
{
    if (hay.find(needle) != std::string_view::npos)
        return true;
    const std::size_t n = hay.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (hay[i] != needle[0])
            continue;
        std::size_t h = i;
        std::size_t k = 0;
        for (; k < needle.size(); ++k) {
            while (h < n && (hay[h] == '_' || hay[h] == '-'))
                ++h;
            if (h >= n || hay[h] != needle[k])
                break;
            ++h;
        }
        if (k == needle.size())
            return true;
    }
    return false;
}

std::string_view viewOf(const QByteArray& bytes)
{
    return std::string_view(bytes.constData(), std::size_t(bytes.size()));
}

// Appends the lower-case UTF-8 of s, byte for byte what Run::searchText() holds for it.
void appendLowered(std::string& out, QStringView s)
{
    const char16_t* p = s.utf16();
    for (qsizetype i = 0; i < s.size(); ++i) {
        if (p[i] >= 0x80) {
            out += s.toString().toLower().toStdString();
            return;
        }
    }
    for (qsizetype i = 0; i < s.size(); ++i) {
        const char c = static_cast<char>(p[i]);
        out += c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
    }
}

// Does a word clause hold for this piece of the search text? The search text joins the fields with spaces, and
// a word (split at spaces) never matches across one, so testing each field alone finds exactly what the whole
// text did.
bool wordIn(const FilterClause& c, std::string_view lowered)
{
    return lowered.find(viewOf(c.word)) != std::string_view::npos || loweredContains(lowered, viewOf(c.value));
}

char16_t lowerAscii(char16_t ch)
{
    return ch >= u'A' && ch <= u'Z' ? char16_t(ch + 32) : ch;
}

// Does the folded word continue at p[i + 1] ('_' and '-' skipped), p[i] being its first character?
bool foldedRestAt(const char16_t* p, qsizetype n, qsizetype i, std::string_view folded)
{
    qsizetype h = i + 1;
    for (std::size_t k = 1; k < folded.size(); ++k) {
        while (h < n && (p[h] == u'_' || p[h] == u'-'))
            ++h;
        if (h >= n || lowerAscii(p[h]) != char16_t(uchar(folded[k])))
            return false;
        ++h;
    }
    return true;
}

// The same as wordIn() over the field's lower-case UTF-8 for an ASCII word, straight from the UTF-16: for an ASCII
// word, finding it as typed implies finding it folded, so the folded test alone decides. -1 when the field is not
// ASCII before an answer (its lower case, QString::toLower, is then made). The first character is looked for 8 code
// units at a time where SSE2 is there: own fields (ids, names) are searched in every run that no shared field
// answered.
int asciiWordInAsciiField(QStringView field, std::string_view folded)
{
    const char16_t* p = field.utf16();
    const qsizetype n = field.size();
    const char16_t first = char16_t(uchar(folded[0]));
    qsizetype i = 0;
#ifdef __SSE2__
    const char16_t upper = first >= u'a' && first <= u'z' ? char16_t(first - 32) : first;
    const __m128i lowerFirst = _mm_set1_epi16(short(first));
    const __m128i upperFirst = _mm_set1_epi16(short(upper));
    const __m128i nonAsciiBits = _mm_set1_epi16(short(0xff80));
    const __m128i zero = _mm_setzero_si128();
    for (; i + 8 <= n; i += 8) {
        const __m128i units = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(units, nonAsciiBits), zero)) != 0xffff)
            return -1; // not ASCII: QString::toLower decides
        unsigned hits = unsigned(
            _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi16(units, lowerFirst), _mm_cmpeq_epi16(units, upperFirst))));
        while (hits != 0) {
            const int bit = __builtin_ctz(hits);
            if (foldedRestAt(p, n, i + bit / 2, folded))
                return 1;
            hits &= ~(3u << bit);
        }
    }
#endif
    for (; i < n; ++i) {
        if (p[i] >= 0x80)
            return -1;
        if (lowerAscii(p[i]) == first && foldedRestAt(p, n, i, folded))
            return 1;
    }
    return 0;
}

bool wordInField(const FilterClause& c, QStringView field, bool asciiWord)
{
    if (field.isEmpty())
        return false;
    if (asciiWord) {
        const int found = asciiWordInAsciiField(field, viewOf(c.value));
        if (found >= 0)
            return found == 1;
    }
    thread_local std::string lowered;
    lowered.clear();
    appendLowered(lowered, field);
    return wordIn(c, lowered);
}

// The fields that runs share (interned: a corpus has a few of each) answer a clause once per thread: a
// direct-mapped cache keyed by the string's data, which the slot holds (so that address is not reused for
// other text while the answer is kept), and by the clause's serial number.
bool wordInSharedField(const FilterClause& c, const QString& field, bool asciiWord)
{
    if (field.isEmpty())
        return false;
    if (c.serial == 0)
        return wordInField(c, field, asciiWord);
    struct Slot
    {
        QString text;
        quint64 serial = 0;
        bool match = false;
    };
    constexpr std::size_t kSlots = 1024;
    thread_local std::array<Slot, kSlots> cache;
    const auto at = reinterpret_cast<std::uintptr_t>(field.constData());
    Slot& slot = cache[((at >> 4) ^ (at >> 16) ^ (c.serial * 0x9E3779B97F4A7C15ull >> 40)) % kSlots];
    if (slot.serial == c.serial && slot.text.constData() == field.constData() && slot.text.size() == field.size())
        return slot.match;
    slot.match = wordInField(c, field, asciiWord);
    slot.text = field;
    slot.serial = c.serial;
    return slot.match;
}

} // namespace

bool isAscii(const QByteArray& bytes)
{
    for (const char c : bytes) {
        if (uchar(c) >= 0x80)
            return false;
    }
    return true;
}

bool wordClauseMatches(const FilterClause& c, const Run& run, unsigned groups)
{
    const bool ascii = isAscii(c.word);
    // the fields that runs share first (mostly answered from the cache), then those of the run alone
    const auto shared = [&](unsigned group, std::initializer_list<const QString*> fields) {
        if (!(groups & group))
            return false;
        for (const QString* s : fields) {
            if (wordInSharedField(c, *s, ascii))
                return true;
        }
        return false;
    };
    if (shared(WhatFields,
            { &run.kernel, &run.provider, &run.pass, &run.title, &run.benchmark, &run.links().operationTitle,
                &run.links().implementationTitle, &run.links().project })
        || shared(GpuFields, { &run.gpuProduct, &run.gpuSlug, &run.gpuArchitecture })
        || shared(WorkloadFields, { &run.workloadSlug, &run.links().workloadTitle })
        || shared(ContextFields, { &run.status, &run.source, &run.file }))
        return true;
    if ((groups & OwnFields) && (wordInField(c, run.externalId, ascii) || wordInField(c, run.name, ascii)))
        return true;
    if (groups & WhatFields) {
        for (const QStringList* names : { &run.links().authors, &run.links().operationAliases }) {
            for (const QString& name : *names) {
                if (wordInSharedField(c, name, ascii))
                    return true;
            }
        }
    }
    if (!(groups & ContextFields))
        return false;
    if (!run.isLatency() && wordInField(c, run.metricName(), ascii))
        return true;
    if (run.failed() && wordIn(c, "failed"))
        return true;
    thread_local std::string label;
    for (const KeyValue& kv : run.labels) {
        label.clear();
        appendLowered(label, kv.key);
        label += '=';
        appendLowered(label, kv.value);
        if (wordIn(c, label))
            return true;
    }
    return false;
}

} // namespace kix
