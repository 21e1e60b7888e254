// SPDX-License-Identifier: Apache-2.0
#include "model/filter/runfilter.h"

#include "model/filter/wordmatch.h"

#include <atomic>
#include <cmath>

namespace kix {

namespace {

bool isSeparator(char16_t c)
{
    return c == u'_' || c == u'-';
}

char16_t foldChar(char16_t c)
{
    return (c >= u'A' && c <= u'Z') ? char16_t(c + 32) : QChar(c).toLower().unicode();
}

// Does `hay`, folded, equal (or contain) `needle` (already folded UTF-8)? No allocation: this runs for every run on
// every keystroke. Non-ASCII needle bytes compare against the UTF-16 code unit only when both are ASCII, so a
// non-ASCII value falls back to the allocating path.
bool foldedMatchAt(QStringView hay, qsizetype start, const QByteArray& needle, qsizetype* end)
{
    qsizetype i = start;
    for (const char n : needle) {
        while (i < hay.size() && isSeparator(hay[i].unicode()))
            ++i;
        if (i >= hay.size() || foldChar(hay[i].unicode()) != char16_t(uchar(n)))
            return false;
        ++i;
    }
    if (end)
        *end = i;
    return true;
}

bool foldedEquals(QStringView hay, const QByteArray& needle)
{
    if (!isAscii(needle))
        return foldForFilter(hay) == needle;
    qsizetype end = 0;
    if (!foldedMatchAt(hay, 0, needle, &end))
        return false;
    while (end < hay.size() && isSeparator(hay[end].unicode()))
        ++end;
    return end == hay.size();
}

bool foldedContains(QStringView hay, const QByteArray& needle)
{
    if (needle.isEmpty())
        return true;
    if (!isAscii(needle))
        return foldForFilter(hay).contains(needle);
    for (qsizetype i = 0; i < hay.size(); ++i) {
        if (!isSeparator(hay[i].unicode()) && foldedMatchAt(hay, i, needle, nullptr))
            return true;
    }
    return false;
}

bool compareNumber(FilterClause::Op op, double a, double b)
{
    switch (op) {
    case FilterClause::Op::Equals:
    case FilterClause::Op::Contains:
        return a == b;
    case FilterClause::Op::NotEquals:
        return a != b;
    case FilterClause::Op::Less:
        return a < b;
    case FilterClause::Op::LessEqual:
        return a <= b;
    case FilterClause::Op::Greater:
        return a > b;
    case FilterClause::Op::GreaterEqual:
        return a >= b;
    case FilterClause::Op::Word:
        break;
    }
    return false;
}

// One value of the key's field against the clause. `number` is the value as a number (NaN when it is text).
bool valueMatches(const FilterClause& c, QStringView value, double number)
{
    const bool numeric = !std::isnan(c.number) && !std::isnan(number);
    switch (c.op) {
    case FilterClause::Op::Equals:
        return numeric ? number == c.number : foldedEquals(value, c.value);
    case FilterClause::Op::NotEquals:
        return numeric ? number != c.number : !foldedEquals(value, c.value);
    case FilterClause::Op::Contains:
        return numeric ? number == c.number : foldedContains(value, c.value);
    case FilterClause::Op::Less:
    case FilterClause::Op::LessEqual:
    case FilterClause::Op::Greater:
    case FilterClause::Op::GreaterEqual:
        return numeric && compareNumber(c.op, number, c.number);
    case FilterClause::Op::Word:
        break;
    }
    return false;
}

double numberOf(QStringView text)
{
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok ? v : std::numeric_limits<double>::quiet_NaN();
}

// The values a key names on a run, in the fields of `groups`; false when the run has no such key there.
template<typename Visit>
bool visitKey(const Run& run, const QByteArray& key, unsigned groups, Visit&& visit)
{
    auto one = [&](unsigned group, const QString& v) {
        if (!(groups & group))
            return false;
        visit(QStringView(v), numberOf(v));
        return true;
    };
    if (key == "kernel")
        return one(WhatFields, run.kernel);
    if (key == "pass")
        return one(WhatFields, run.pass);
    if (key == "provider")
        return one(WhatFields, run.provider);
    if (key == "gpu") {
        if (!(groups & GpuFields))
            return false;
        visit(QStringView(run.gpuSlug), std::numeric_limits<double>::quiet_NaN());
        visit(QStringView(run.gpuProduct), std::numeric_limits<double>::quiet_NaN());
        // "NVIDIA B200" answers gpu=b200 too
        const qsizetype space = run.gpuProduct.indexOf(QLatin1Char(' '));
        if (space > 0)
            visit(QStringView(run.gpuProduct).mid(space + 1), std::numeric_limits<double>::quiet_NaN());
        return true;
    }
    if (key == "dtype")
        return one(WorkloadFields, run.dtype);
    if (key == "source")
        return one(ContextFields, run.source);
    if (key == "status")
        return one(ContextFields, run.status);
    if (key == "metric")
        return one(ContextFields, run.metricName());
    if (key == "author" || key == "operation" || key == "project") {
        if (!(groups & WhatFields))
            return false;
        const auto many = [&](const QStringList& names) {
            for (const QString& name : names)
                visit(QStringView(name), std::numeric_limits<double>::quiet_NaN());
        };
        if (key == "author") {
            many(run.links().authors);
            visit(QStringView(run.links().project), std::numeric_limits<double>::quiet_NaN());
        } else if (key == "operation") {
            for (const QString* name : { &run.kernel, &run.links().operationTitle, &run.benchmark })
                visit(QStringView(*name), std::numeric_limits<double>::quiet_NaN());
            many(run.links().operationAliases);
        } else {
            visit(QStringView(run.links().project), std::numeric_limits<double>::quiet_NaN());
        }
        return true;
    }
    if (key == "file")
        return one(ContextFields, run.file);
    if (key == "workload")
        return one(WorkloadFields, run.workloadSlug);
    if (key == "arch" || key == "architecture")
        return one(GpuFields, run.gpuArchitecture);
    bool found = false;
    if (groups & WorkloadFields) {
        for (const WorkloadParam& p : run.workload) {
            if (foldedEquals(p.key, key)) {
                visit(QStringView(p.value), p.number);
                found = true;
            }
        }
    }
    if (groups & ContextFields) {
        for (const KeyValue& label : run.labels) {
            if (foldedEquals(label.key, key)) {
                visit(QStringView(label.value), numberOf(label.value));
                found = true;
            }
        }
    }
    return found;
}

} // namespace

QByteArray foldForFilter(QStringView text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        if (!isSeparator(c.unicode()))
            out += QChar(foldChar(c.unicode()));
    }
    return out.toUtf8();
}

QString filterGrammarHelp()
{
    return QStringLiteral(
        "Every clause must hold (separate clauses with spaces):\n"
        "  word          appears in the run's kernel, implementation, benchmark, title, name, id, GPU, status, source, "
        "file or labels\n"
        "  key=value     equals (numbers numerically): channels=2048 dtype=bf16 provider=liger\n"
        "  key:value     contains: gpu:b200 kernel:norm\n"
        "  key!=value    does not equal\n"
        "  key>N key>=N key<N key<=N   compares numbers: channels>=1024\n"
        "Keys: kernel pass provider gpu dtype source metric status file workload, any workload parameter\n"
        "(batch, channels, hidden, ...) and any label. Case, '_' and '-' are ignored: groupnorm finds group_norm.");
}

QString filterOptionHelp()
{
    return QStringLiteral("Only runs matching TEXT: words and key=value, key:value, key>=N clauses, all of which must "
                          "hold (\"groupnorm backward channels=2048 gpu:b200\"); `kix --help` has the grammar.");
}

FilterClause RunFilter::parseClause(const QString& text)
{
    static std::atomic<quint64> serials { 0 };
    FilterClause c;
    c.text = text;
    c.serial = ++serials;
    // The first operator character after a non-empty key; two-character operators first.
    static const struct
    {
        const char* token;
        FilterClause::Op op;
    } ops[] = { { "!=", FilterClause::Op::NotEquals }, { ">=", FilterClause::Op::GreaterEqual },
        { "<=", FilterClause::Op::LessEqual }, { "=", FilterClause::Op::Equals }, { ":", FilterClause::Op::Contains },
        { ">", FilterClause::Op::Greater }, { "<", FilterClause::Op::Less } };
    qsizetype at = -1;
    qsizetype length = 0;
    for (qsizetype i = 1; i < text.size() && at < 0; ++i) {
        for (const auto& o : ops) {
            const QLatin1String token(o.token);
            if (QStringView(text).mid(i).startsWith(token)) {
                at = i;
                length = token.size();
                c.op = o.op;
                break;
            }
        }
    }
    if (at < 0) {
        c.op = FilterClause::Op::Word;
        c.value = foldForFilter(text);
        c.word = text.toLower().toUtf8();
        return c;
    }
    c.key = foldForFilter(QStringView(text).left(at));
    const QStringView value = QStringView(text).mid(at + length);
    c.value = foldForFilter(value);
    c.number = numberOf(value);
    if (c.key.isEmpty()) {
        c.op = FilterClause::Op::Word;
        c.value = foldForFilter(text);
        c.word = text.toLower().toUtf8();
    }
    return c;
}

bool RunFilter::clauseMatches(const FilterClause& c, const Run& run)
{
    const Parts parts = clauseParts(c, run, AllFieldGroups);
    // != must hold for every name of the field (gpu has several); the others for one of them
    return c.op == FilterClause::Op::NotEquals ? parts.found && parts.all : parts.any;
}

RunFilter::Parts RunFilter::clauseParts(const FilterClause& c, const Run& run, unsigned groups)
{
    Parts parts;
    if (c.op == FilterClause::Op::Word) {
        parts.any = c.value.isEmpty() || wordClauseMatches(c, run, groups);
        parts.found = parts.any;
        parts.all = parts.any;
        return parts;
    }
    parts.found = visitKey(run, c.key, groups, [&](QStringView value, double number) {
        const bool m = valueMatches(c, value, number);
        parts.any = parts.any || m;
        parts.all = parts.all && m;
    });
    return parts;
}

FieldGroup facetGroup(Facet facet)
{
    switch (facet) {
    case Facet::Kernel:
    case Facet::Pass:
    case Facet::Provider:
        return WhatFields;
    case Facet::Gpu:
        return GpuFields;
    case Facet::Dtype:
        return WorkloadFields;
    case Facet::Source:
    case Facet::Metric:
    case Facet::Status:
        return ContextFields;
    }
    return ContextFields;
}

QString facetName(Facet facet)
{
    switch (facet) {
    case Facet::Kernel:
        return QStringLiteral("Kernel");
    case Facet::Pass:
        return QStringLiteral("Pass");
    case Facet::Provider:
        return QStringLiteral("Provider");
    case Facet::Gpu:
        return QStringLiteral("GPU");
    case Facet::Dtype:
        return QStringLiteral("Dtype");
    case Facet::Source:
        return QStringLiteral("Source");
    case Facet::Metric:
        return QStringLiteral("Metric");
    case Facet::Status:
        return QStringLiteral("Status");
    }
    return {};
}

QString facetValue(const Run& run, Facet facet)
{
    switch (facet) {
    case Facet::Kernel:
        return run.kernel;
    case Facet::Pass:
        return run.pass;
    case Facet::Provider:
        return run.provider;
    case Facet::Gpu:
        return run.gpuDisplayName();
    case Facet::Dtype:
        return run.dtype;
    case Facet::Source:
        return run.source;
    case Facet::Metric:
        return run.metricName();
    case Facet::Status:
        return run.status;
    }
    return {};
}

const QVector<Facet>& allFacets()
{
    static const QVector<Facet> facets = { Facet::Kernel, Facet::Pass, Facet::Provider, Facet::Gpu, Facet::Dtype,
        Facet::Source, Facet::Metric, Facet::Status };
    return facets;
}

// The text's terms, split at spaces outside double quotes; the quotes are dropped, so that a value can hold spaces
// (author:"Amir M. Mir", operation="AMD FP8 blockwise GEMM"). A quoted bare phrase is its words.
QStringList filterTerms(const QString& text)
{
    QStringList terms;
    QString term;
    bool quoted = false;
    bool bare = true; // the term has no key before its quote
    auto flush = [&] {
        if (!term.isEmpty())
            terms += bare ? term.split(QLatin1Char(' '), Qt::SkipEmptyParts) : QStringList { term };
        term.clear();
        bare = true;
    };
    for (const QChar c : text) {
        if (c == QLatin1Char('"')) {
            if (!quoted && !term.isEmpty())
                bare = false;
            quoted = !quoted;
        } else if (c == QLatin1Char(' ') && !quoted) {
            flush();
        } else {
            term += c;
        }
    }
    flush();
    return terms;
}

void RunFilter::setText(const QString& text)
{
    m_text = text;
    m_clauses.clear();
    for (const QString& term : filterTerms(text)) {
        FilterClause c = parseClause(term);
        if (c.op != FilterClause::Op::Word || !c.value.isEmpty())
            m_clauses.append(std::move(c));
    }
}

void RunFilter::setFacet(Facet facet, const QSet<QString>& values)
{
    if (values.isEmpty())
        m_facets.remove(facet);
    else
        m_facets.insert(facet, values);
}

bool RunFilter::isEmpty() const
{
    return m_clauses.isEmpty() && m_facets.isEmpty();
}

bool RunFilter::matches(const Run& run) const
{
    for (auto it = m_facets.cbegin(); it != m_facets.cend(); ++it) {
        if (!it.value().contains(facetValue(run, it.key())))
            return false;
    }
    for (const FilterClause& clause : m_clauses) {
        if (!clauseMatches(clause, run))
            return false;
    }
    return true;
}

bool filterTextNarrows(const RunFilter& before, const RunFilter& after)
{
    for (const FilterClause& old : before.clauses()) {
        bool covered = false;
        for (const FilterClause& c : after.clauses()) {
            if (old.op == FilterClause::Op::Word ? c.op == FilterClause::Op::Word && c.word.contains(old.word)
                                                 : c.op == old.op && c.key == old.key && c.text == old.text) {
                covered = true;
                break;
            }
        }
        if (!covered)
            return false;
    }
    return true;
}

RunList RunFilter::apply(const RunList& runs) const
{
    if (isEmpty())
        return runs;
    RunList out;
    for (const RunPtr& run : runs) {
        if (matches(*run))
            out.append(run);
    }
    return out;
}

} // namespace kix
