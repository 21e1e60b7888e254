// SPDX-License-Identifier: Apache-2.0
#include "model/filter/filterindex.h"

#include "model/filter/wordmatch.h"
#include "model/workload.h"

#include <cmath>

namespace kix {

namespace {

bool sameNumber(double a, double b)
{
    return a == b || (std::isnan(a) && std::isnan(b));
}

bool sameWorkload(const QVector<WorkloadParam>& a, const QVector<WorkloadParam>& b)
{
    if (a.constData() == b.constData() && a.size() == b.size())
        return true; // finalize() shares equal lists
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (!sameText(a[i].key, b[i].key) || !sameText(a[i].value, b[i].value) || !sameNumber(a[i].number, b[i].number))
            return false;
    }
    return true;
}

bool sameNames(const QStringList& a, const QStringList& b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (!sameText(a[i], b[i]))
            return false;
    }
    return true;
}

bool sameLabels(const QVector<KeyValue>& a, const QVector<KeyValue>& b)
{
    if (a.constData() == b.constData() && a.size() == b.size())
        return true;
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (!sameText(a[i].key, b[i].key) || !sameText(a[i].value, b[i].value))
            return false;
    }
    return true;
}

// Every field the filter reads in the group (runfilter.cpp, wordmatch.cpp): runs equal here answer every clause
// the same over the group.
bool sameInGroup(int group, const Run& a, const Run& b)
{
    switch (group) {
    case 0: // WhatFields
        return sameText(a.kernel, b.kernel) && sameText(a.pass, b.pass) && sameText(a.provider, b.provider)
            && sameText(a.title, b.title) && sameText(a.benchmark, b.benchmark)
            && sameText(a.links().operationTitle, b.links().operationTitle)
            && sameText(a.links().implementationTitle, b.links().implementationTitle)
            && sameText(a.links().project, b.links().project) && sameNames(a.links().authors, b.links().authors)
            && sameNames(a.links().operationAliases, b.links().operationAliases);
    case 1: // GpuFields
        return sameText(a.gpuProduct, b.gpuProduct) && sameText(a.gpuSlug, b.gpuSlug)
            && sameText(a.gpuArchitecture, b.gpuArchitecture);
    case 2: // WorkloadFields
        return sameText(a.workloadSlug, b.workloadSlug) && sameText(a.dtype, b.dtype)
            && sameText(a.links().workloadTitle, b.links().workloadTitle) && sameWorkload(a.workload, b.workload);
    default: // ContextFields
        return sameText(a.status, b.status) && sameText(a.source, b.source) && sameText(a.file, b.file)
            && a.metric == b.metric && sameText(a.headlineMetric, b.headlineMetric) && sameLabels(a.labels, b.labels);
    }
}

size_t hashInGroup(int group, const Run& r)
{
    switch (group) {
    case 0:
        return qHashMulti(0, r.kernel, r.pass, r.provider, r.title, r.benchmark, r.links().implementationTitle);
    case 1:
        return qHashMulti(0, r.gpuProduct, r.gpuSlug, r.gpuArchitecture);
    case 2: {
        size_t h = qHashMulti(0, r.workloadSlug, r.dtype, r.links().workloadTitle);
        for (const WorkloadParam& p : r.workload)
            h = qHashMulti(h, p.key, p.value);
        return h;
    }
    default: {
        size_t h = qHashMulti(0, r.status, r.source, r.file, int(r.metric), r.headlineMetric);
        for (const KeyValue& kv : r.labels)
            h = qHashMulti(h, kv.key, kv.value);
        return h;
    }
    }
}

// The same over where the fields' text is held: interned fields (the loader's) share it, so that most runs find
// their value without hashing any text.
size_t addressKey(int group, const Run& r)
{
    auto at = [](const auto& s) { return quintptr(s.constData()) ^ (quintptr(s.size()) << 48); };
    switch (group) {
    case 0:
        return qHashMulti(0, at(r.kernel), at(r.pass), at(r.provider), at(r.title), at(r.benchmark),
            at(r.links().implementationTitle));
    case 1:
        return qHashMulti(0, at(r.gpuProduct), at(r.gpuSlug), at(r.gpuArchitecture));
    case 2:
        return qHashMulti(0, at(r.workloadSlug), at(r.dtype), at(r.workload), at(r.links().workloadTitle));
    default:
        return qHashMulti(0, at(r.status), at(r.source), at(r.file), int(r.metric), at(r.headlineMetric), at(r.labels));
    }
}

void prefetch(const void* at)
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(at);
#else
    (void)at;
#endif
}

} // namespace

void FilterIndex::IdColumn::push(quint32 id)
{
    if (!m_wide && id > 0xffff) {
        m_ids32.assign(m_ids16.begin(), m_ids16.end());
        m_ids16 = {};
        m_wide = true;
    }
    if (m_wide)
        m_ids32.push_back(id);
    else
        m_ids16.push_back(quint16(id));
}

void FilterIndex::IdColumn::reserve(size_t n)
{
    if (m_wide)
        m_ids32.reserve(n);
    else
        m_ids16.reserve(n);
}

std::shared_ptr<const FilterIndex> FilterIndex::extend(
    const std::shared_ptr<const FilterIndex>& base, const RunList& runs)
{
    const bool continues
        = base && base->m_size <= runs.size() && (base->m_size == 0 || runs[base->m_size - 1].get() == base->m_last);
    if (continues && base->m_size == runs.size())
        return base;
    auto index = continues ? std::make_shared<FilterIndex>(*base) : std::make_shared<FilterIndex>();
    index->append(runs, index->m_size);
    return index;
}

void FilterIndex::append(const RunList& runs, qsizetype from)
{
    const qsizetype n = runs.size();
    constexpr size_t kCached = 4096;
    qint64 previous[GroupCount]; // the value of the run before: neighbours mostly share it
    std::vector<qint64> byAddress[GroupCount]; // a value whose fields' text is held where this run's is
    for (int g = 0; g < GroupCount; ++g) {
        m_groups[g].ids.reserve(size_t(n));
        previous[g] = -1;
        byAddress[g].assign(kCached, -1);
    }
    for (qsizetype i = from; i < n; ++i) { // one pass: each run is read once
        const Run& run = *runs[i];
        for (int g = 0; g < GroupCount; ++g) {
            Group& group = m_groups[g];
            if (previous[g] >= 0 && sameInGroup(g, *group.values[qsizetype(previous[g])], run)) {
                group.ids.push(quint32(previous[g]));
                continue;
            }
            qint64& cached = byAddress[g][addressKey(g, run) % kCached];
            if (cached >= 0 && sameInGroup(g, *group.values[qsizetype(cached)], run)) {
                group.ids.push(quint32(cached));
                previous[g] = cached;
                continue;
            }
            const size_t h = hashInGroup(g, run);
            qint64 id = -1;
            for (auto it = group.byHash.constFind(h); it != group.byHash.constEnd() && it.key() == h; ++it) {
                if (sameInGroup(g, *group.values[qsizetype(it.value())], run)) {
                    id = it.value();
                    break;
                }
            }
            if (id < 0) {
                id = group.values.size();
                group.values.append(runs[i]);
                group.byHash.insert(h, quint32(id));
            }
            group.ids.push(quint32(id));
            previous[g] = cached = id;
        }
    }
    m_size = n;
    m_last = n > 0 ? runs[n - 1].get() : nullptr;
}

FilterIndex::Matcher::Matcher(const FilterIndex& index, const RunFilter& filter)
    : m_index(index)
{
    for (Facet facet : allFacets()) {
        const QSet<QString> selected = filter.facet(facet);
        if (selected.isEmpty())
            continue;
        const int g = groupOf(facetGroup(facet));
        std::vector<char>& ok = m_facetOk[g];
        if (ok.empty())
            ok.assign(size_t(index.valueCount(g)), 1);
        bool any = false;
        for (int v = 0; v < index.valueCount(g); ++v) {
            ok[size_t(v)] = ok[size_t(v)] && selected.contains(facetValue(*index.m_groups[g].values[v], facet));
            any = any || ok[size_t(v)];
        }
        m_never = m_never || !any;
    }
    for (const FilterClause& c : filter.clauses()) {
        Clause clause;
        clause.clause = &c;
        clause.kind = c.op == FilterClause::Op::Word ? Clause::Word
            : c.op == FilterClause::Op::NotEquals    ? Clause::NotEquals
                                                     : Clause::Other;
        for (int g = 0; g < GroupCount; ++g) {
            std::vector<quint8>& codes = clause.codes[g];
            codes.resize(size_t(index.valueCount(g)));
            for (int v = 0; v < index.valueCount(g); ++v) {
                const RunFilter::Parts p = RunFilter::clauseParts(c, *index.m_groups[g].values[v], groupBit(g));
                codes[size_t(v)] = quint8((p.any ? 1 : 0) | (p.found ? 2 : 0) | (p.all ? 4 : 0));
            }
        }
        m_clauses.push_back(std::move(clause));
    }
}

template<typename Word>
int FilterIndex::Matcher::decide(qsizetype row, Word&& word) const
{
    if (m_never)
        return 0;
    quint32 id[GroupCount];
    for (int g = 0; g < GroupCount; ++g) {
        id[g] = m_index.valueOf(g, row);
        if (!m_facetOk[g].empty() && !m_facetOk[g][id[g]])
            return 0;
    }
    int answer = 1;
    for (const Clause& c : m_clauses) {
        quint8 any = 0;
        quint8 all = 7;
        for (int g = 0; g < GroupCount; ++g) {
            const quint8 code = c.codes[g][id[g]];
            any |= code;
            all &= code;
        }
        switch (c.kind) {
        case Clause::Word:
            if (!(any & 1)) {
                const int found = word(*c.clause);
                if (found == 0)
                    return 0;
                if (found < 0)
                    answer = 2;
            }
            break;
        case Clause::NotEquals: // found in some group, and every value in every group differs
            if (!(any & 2) || !(all & 4))
                return 0;
            break;
        case Clause::Other:
            if (!(any & 1))
                return 0;
            break;
        }
    }
    return answer;
}

int FilterIndex::Matcher::sharedAnswer(qsizetype row) const
{
    return decide(row, [](const FilterClause&) { return -1; });
}

void FilterIndex::Matcher::filterRows(qsizetype begin, qsizetype end, const RunList& runs, char* accepted) const
{
    // First by the ids alone; then the rows a word is still to be found in, in their own fields, with the runs
    // and their text fetched ahead (a million runs are scattered over the heap: the misses cost more than the test).
    thread_local std::vector<qsizetype> pending;
    pending.clear();
    for (qsizetype i = begin; i < end; ++i) {
        if (!accepted[i])
            continue;
        const int answer = sharedAnswer(i);
        if (answer == 0)
            accepted[i] = 0;
        else if (answer == 2)
            pending.push_back(i);
    }
    constexpr size_t kAhead = 12;
    const size_t count = pending.size();
    auto fetch = [](const QString& s) {
        const char* p = reinterpret_cast<const char*>(s.constData());
        for (qsizetype at = 0; at < s.size() * 2 && at < 256; at += 64)
            prefetch(p + at);
    };
    for (size_t j = 0; j < count; ++j) {
        if (j + 2 * kAhead < count) {
            const char* run = reinterpret_cast<const char*>(runs[pending[j + 2 * kAhead]].get());
            prefetch(run);
            prefetch(run + 64);
        }
        if (j + kAhead < count) {
            const Run* run = runs[pending[j + kAhead]].get();
            fetch(run->externalId);
            fetch(run->name);
        }
        accepted[pending[j]] = matches(pending[j], runs) ? 1 : 0;
    }
}

bool FilterIndex::Matcher::matches(qsizetype row, const RunList& runs) const
{
    return decide(row, [&](const FilterClause& clause) {
        return wordClauseMatches(clause, *runs[row], OwnFields) ? 1 : 0;
    }) == 1;
}

} // namespace kix
