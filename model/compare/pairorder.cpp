// SPDX-License-Identifier: Apache-2.0
#include "model/compare/pairorder.h"

#include "model/chartdata/distincttext.h"
#include "model/workload.h"

#include <QHash>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

namespace kix {

namespace {

// Ranks that order as a text field does: runs in a row that share the text (the same address) skip the lookup.
class TextRanks
{
public:
    explicit TextRanks(const QSet<QString>& values)
    {
        QStringList sorted = values.values();
        std::sort(sorted.begin(), sorted.end());
        for (int i = 0; i < sorted.size(); ++i)
            m_rank.insert(sorted[i], i);
    }
    int of(const QString& text)
    {
        if (!m_last || text.constData() != m_last || text.size() != m_lastSize) {
            m_last = text.constData();
            m_lastSize = text.size();
            m_lastRank = m_rank.value(text, -1);
        }
        return m_lastRank;
    }

private:
    QHash<QString, int> m_rank;
    const QChar* m_last = nullptr;
    qsizetype m_lastSize = -1;
    int m_lastRank = -1;
};

// The class of a run's workload under compareWorkloads (equal classes compare 0): each parameter's key and its
// number (or, when it has none, its value), then the dtype.
QString workloadClass(const Run& run)
{
    QString out;
    for (const WorkloadParam& p : run.workload) {
        out += p.key;
        out += QChar(0x1f);
        if (std::isnan(p.number)) {
            out += QLatin1Char('$') + p.value;
        } else {
            const double n = p.number == 0 ? 0.0 : p.number; // -0 == 0
            out += QLatin1Char('#') + QString::number(n, 'g', 17);
        }
        out += QChar(0x1e);
    }
    return out + QChar(0x1d) + run.dtype;
}

// Workload classes: a run in a row with the previous one's workload (compareWorkloads 0) shares its class. Sets
// each pair's class; returns a run of each class.
RunList pairWorkloadClasses(const QVector<ComparisonPair>& pairs, std::vector<int>& workloadOfPair)
{
    QHash<QString, int> classOf;
    RunList representatives;
    const Run* previous = nullptr;
    int previousClass = -1;
    for (qsizetype i = 0; i < pairs.size(); ++i) {
        const Run& run = *pairs[i].run;
        if (!previous || compareWorkloads(*previous, run) != 0) {
            const QString key = workloadClass(run);
            auto it = classOf.constFind(key);
            if (it == classOf.constEnd()) {
                it = classOf.insert(key, int(representatives.size()));
                representatives << pairs[i].run;
            }
            previousClass = *it;
            previous = &run;
        }
        workloadOfPair[size_t(i)] = previousClass;
    }
    return representatives;
}

// Each workload class's rank under compareWorkloads.
std::vector<int> workloadClassRanks(const RunList& representatives)
{
    std::vector<int> classOrder(size_t(representatives.size()));
    for (size_t c = 0; c < classOrder.size(); ++c)
        classOrder[c] = int(c);
    std::sort(classOrder.begin(), classOrder.end(),
        [&](int a, int b) { return compareWorkloads(*representatives[a], *representatives[b]) < 0; });
    std::vector<int> workloadRank(classOrder.size());
    for (size_t k = 0; k < classOrder.size(); ++k) // distinct classes never compare 0
        workloadRank[size_t(classOrder[k])] = int(k);
    return workloadRank;
}

// Within a block of pairs of one kernel, pass, workload, provider and GPU the externalIds often share a long
// prefix (a producer's path): each pair also keeps the eight characters after the block's common prefix,
// compared as two numbers; only when those agree are the whole ids compared. Both comparisons order as the
// ids do (code unit by code unit, a shorter id first).
struct PairSortKey
{
    int kernel, pass, workload, provider, gpu;
    quint64 id0 = 0, id1 = 0; // characters [common, common + 8) of the externalId, 0 past its end
    const QString* externalId;
    int index;
    bool sameBlock(const PairSortKey& o) const
    {
        return kernel == o.kernel && pass == o.pass && workload == o.workload && provider == o.provider && gpu == o.gpu;
    }
};

// Fills each key's id0 and id1: the eight characters of its externalId after its block's common prefix.
void fillPairIdPrefixes(std::vector<PairSortKey>& keyed)
{
    struct Block
    {
        const QString* first;
        qsizetype common;
    };
    auto blockKey = [](const PairSortKey& k) {
        return std::array<int, 5> { k.kernel, k.pass, k.workload, k.provider, k.gpu };
    };
    std::map<std::array<int, 5>, Block> blocks;
    const PairSortKey* previousKeyed = nullptr;
    Block* block = nullptr;
    for (const PairSortKey& k : keyed) { // the common prefix of each block's ids
        if (!previousKeyed || !previousKeyed->sameBlock(k)) {
            block = &blocks.try_emplace(blockKey(k), Block { k.externalId, k.externalId->size() }).first->second;
            previousKeyed = &k;
        }
        const QString& a = *block->first;
        const QString& b = *k.externalId;
        qsizetype n = std::min({ block->common, a.size(), b.size() });
        qsizetype c = 0;
        while (c < n && a[c] == b[c])
            ++c;
        block->common = c;
    }
    previousKeyed = nullptr;
    for (PairSortKey& k : keyed) {
        if (!previousKeyed || !previousKeyed->sameBlock(k)) {
            block = &blocks.find(blockKey(k))->second;
            previousKeyed = &k;
        }
        const QString& id = *k.externalId;
        auto unit = [&id](qsizetype at) { return at < id.size() ? quint64(id[at].unicode()) : quint64(0); };
        for (qsizetype j = 0; j < 4; ++j) {
            k.id0 = k.id0 << 16 | unit(block->common + j);
            k.id1 = k.id1 << 16 | unit(block->common + 4 + j);
        }
    }
}

} // namespace

// Pairs by kernel, pass, workload (compareWorkloads), provider, GPU name, externalId: std::sort with a comparison
// of those fields (the plain way) makes the same comparisons' outcomes as this one, so the same order. Here each
// pair's kernel, pass, workload, provider and GPU are ranks (integers that order as the fields do), then the
// externalId is compared; the pairs themselves are moved once, at the end.
void sortComparisonPairs(QVector<ComparisonPair>& pairs)
{
    DistinctText kernels, passes, providers, gpus;
    for (const ComparisonPair& p : std::as_const(pairs)) {
        kernels.insert(p.run->kernel);
        passes.insert(p.run->pass);
        providers.insert(p.run->provider);
        gpus.insert(p.run->gpuDisplayName());
    }
    TextRanks kernelRank(kernels.values()), passRank(passes.values()), providerRank(providers.values()),
        gpuRank(gpus.values());
    std::vector<int> workloadOfPair(size_t(pairs.size()));
    const RunList representatives = pairWorkloadClasses(pairs, workloadOfPair);
    const std::vector<int> workloadRank = workloadClassRanks(representatives);

    std::vector<PairSortKey> keyed;
    keyed.reserve(size_t(pairs.size()));
    for (qsizetype i = 0; i < pairs.size(); ++i) {
        const Run& run = *pairs[i].run;
        keyed.push_back(
            { kernelRank.of(run.kernel), passRank.of(run.pass), workloadRank[size_t(workloadOfPair[size_t(i)])],
                providerRank.of(run.provider), gpuRank.of(run.gpuDisplayName()), 0, 0, &run.externalId, int(i) });
    }
    fillPairIdPrefixes(keyed);
    const auto order = [](const PairSortKey& k) {
        return std::tie(k.kernel, k.pass, k.workload, k.provider, k.gpu, k.id0, k.id1, *k.externalId);
    };
    std::sort(keyed.begin(), keyed.end(),
        [&order](const PairSortKey& x, const PairSortKey& y) { return order(x) < order(y); });
    QVector<ComparisonPair> sorted;
    sorted.reserve(pairs.size());
    for (const PairSortKey& k : keyed)
        sorted.append(std::move(pairs[k.index]));
    pairs = std::move(sorted);
}

} // namespace kix
