// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/overviewdata.h"

#include "model/chartdata/distincttext.h"
#include "model/filter/runfilter.h"
#include "model/workload.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <numeric>

namespace kix {

namespace {

struct Tally
{
    int runs = 0;
    int failed = 0;
    DistinctText implementations; // the runs' own strings: alive while the overview is built

    void add(const Run& run, bool isFailed)
    {
        ++runs;
        failed += isFailed ? 1 : 0;
        const QString& impl = run.provider.isEmpty() ? run.implementationDigest : run.provider;
        if (!impl.isEmpty())
            implementations.insert(impl);
    }
    OverviewCell cell() const { return { runs, int(implementations.values().size()), failed }; }
};

// Indices of `names` ordered by their runs, most first, then by name.
QVector<int> orderByRuns(const QStringList& names, const QVector<Tally>& totals)
{
    QVector<int> order(names.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        if (totals[a].runs != totals[b].runs)
            return totals[a].runs > totals[b].runs;
        return names[a] < names[b];
    });
    return order;
}

// The first candidate clause that matches exactly the representatives whose group is `group`.
template<typename GroupOf>
QString exactClause(
    const QStringList& candidates, const RunList& representatives, const QString& group, GroupOf groupOf)
{
    for (const QString& text : candidates) {
        const FilterClause clause = RunFilter::parseClause(text);
        if (clause.op == FilterClause::Op::Word)
            continue;
        const bool exact = std::all_of(representatives.begin(), representatives.end(),
            [&](const RunPtr& run) { return RunFilter::clauseMatches(clause, *run) == (groupOf(*run) == group); });
        if (exact)
            return text;
    }
    return {};
}

bool hasSpace(const QString& text)
{
    return std::any_of(text.begin(), text.end(), [](QChar c) { return c.isSpace(); });
}

// "kernel=NAME" where the name has no space; else "kernel:WORD" for its words, longest first.
QStringList candidatesFor(const QString& key, const QStringList& names)
{
    QStringList out;
    QStringList words;
    for (const QString& name : names) {
        if (!hasSpace(name))
            out << key + QLatin1Char('=') + name;
        words += name.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    }
    std::stable_sort(
        words.begin(), words.end(), [](const QString& a, const QString& b) { return a.size() > b.size(); });
    for (const QString& word : std::as_const(words))
        out << key + QLatin1Char(':') + word;
    out.removeDuplicates();
    return out;
}

} // namespace

QString OverviewData::cellClause(int kernel, int gpu) const
{
    const QString& k = kernelClauses.value(kernel);
    const QString& g = gpuClauses.value(gpu);
    return k.isEmpty() || g.isEmpty() ? QString() : k + QLatin1Char(' ') + g;
}

namespace {

// The runs counted by kernel, by GPU, by kernel and GPU, and in all, with what the filter clauses are made from.
struct OverviewTallies
{
    QStringList kernels;
    QStringList gpus;
    QHash<QString, int> kernelIndex;
    QHash<QString, int> gpuIndex;
    QVector<Tally> kernelTally;
    QVector<Tally> gpuTally;
    Tally total;
    QHash<qint64, Tally> cellTally;
    // The clauses depend on the kernel alone and on the GPU's slug and product alone: one run of each is enough.
    RunList kernelReps;
    RunList gpuReps;
    QSet<QPair<QString, QString>> gpuNames;
    QHash<QString, QStringList> namesOfGpu; // display name -> its slugs, product and the product after the vendor
};

// Counts every run in the tallies; false when the build was superseded.
bool tallyOverviewRuns(const RunList& runs, OverviewTallies& t, const CancelToken& cancel)
{
    // Runs in a row of the same kernel, or of the same GPU names, skip the lookups (the same strings in memory).
    const Run* lastKernel = nullptr;
    const Run* lastGpu = nullptr;
    int k = -1;
    int g = -1;
    Tally* cell = nullptr;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        if (cancel.cancelledEvery(i))
            return false; // superseded: dropped by the caller
        const RunPtr& ptr = runs[i];
        const Run& run = *ptr;
        const bool sameKernel = lastKernel && sameText(lastKernel->kernel, run.kernel);
        const bool sameGpu
            = lastGpu && sameText(lastGpu->gpuSlug, run.gpuSlug) && sameText(lastGpu->gpuProduct, run.gpuProduct);
        if (!sameKernel) {
            lastKernel = &run;
            auto it = t.kernelIndex.constFind(run.kernel);
            if (it == t.kernelIndex.constEnd()) {
                it = t.kernelIndex.insert(run.kernel, int(t.kernels.size()));
                t.kernels << run.kernel;
                t.kernelTally.append(Tally {});
                t.kernelReps << ptr;
            }
            k = *it;
        }
        if (sameGpu) {
            const bool isFailed = run.failed();
            t.kernelTally[k].add(run, isFailed);
            t.gpuTally[g].add(run, isFailed);
            if (!sameKernel)
                cell = &t.cellTally[qint64(k) << 32 | g];
            cell->add(run, isFailed);
            t.total.add(run, isFailed);
            continue;
        }
        lastGpu = &run;
        const QString gpu = run.gpuDisplayName();
        auto gi = t.gpuIndex.constFind(gpu);
        if (gi == t.gpuIndex.constEnd()) {
            gi = t.gpuIndex.insert(gpu, int(t.gpus.size()));
            t.gpus << gpu;
            t.gpuTally.append(Tally {});
        }
        g = *gi;
        const QPair<QString, QString> names { run.gpuSlug, run.gpuProduct };
        if (!t.gpuNames.contains(names)) {
            t.gpuNames.insert(names);
            t.gpuReps << ptr;
            QStringList& known = t.namesOfGpu[gpu]; // the shortest that reads well first: gpu=B200
            const qsizetype space = run.gpuProduct.indexOf(QLatin1Char(' '));
            if (space > 0)
                known << run.gpuProduct.mid(space + 1);
            known << run.gpuSlug << run.gpuProduct;
        }
        const bool isFailed = run.failed();
        t.kernelTally[k].add(run, isFailed);
        t.gpuTally[g].add(run, isFailed);
        cell = &t.cellTally[qint64(k) << 32 | g];
        cell->add(run, isFailed);
        t.total.add(run, isFailed);
    }
    return true;
}

// The overview of the tallies: kernels and GPUs by their runs, with their totals, clauses and cells.
OverviewData overviewOfTallies(const OverviewTallies& t)
{
    OverviewData out;
    const QVector<int> kernelOrder = orderByRuns(t.kernels, t.kernelTally);
    const QVector<int> gpuOrder = orderByRuns(t.gpus, t.gpuTally);
    for (int k : kernelOrder) {
        out.kernels << t.kernels[k];
        out.kernelTotals << t.kernelTally[k].cell();
        const QString clause = exactClause(candidatesFor(QStringLiteral("kernel"), { t.kernels[k] }), t.kernelReps,
            t.kernels[k], [](const Run& run) { return run.kernel; });
        out.kernelClauses << clause;
    }
    for (int g : gpuOrder) {
        out.gpus << t.gpus[g];
        out.gpuTotals << t.gpuTally[g].cell();
        QStringList names = t.namesOfGpu.value(t.gpus[g]);
        names.removeAll(QString());
        names.removeDuplicates();
        if (names.isEmpty())
            names << QString(); // "gpu=": the runs that name no GPU
        out.gpuClauses << exactClause(candidatesFor(QStringLiteral("gpu"), names), t.gpuReps, t.gpus[g],
            [](const Run& run) { return run.gpuDisplayName(); });
    }
    out.cells.resize(out.kernels.size() * out.gpus.size());
    for (int row = 0; row < kernelOrder.size(); ++row) {
        for (int col = 0; col < gpuOrder.size(); ++col) {
            const auto it = t.cellTally.constFind(qint64(kernelOrder[row]) << 32 | gpuOrder[col]);
            if (it != t.cellTally.constEnd())
                out.cells[row * out.gpus.size() + col] = it->cell();
        }
    }
    out.total = t.total.cell();
    return out;
}

} // namespace

OverviewData buildOverview(const RunList& runs, const CancelToken& cancel)
{
    OverviewTallies tallies;
    if (!tallyOverviewRuns(runs, tallies, cancel))
        return {}; // superseded: dropped by the caller
    return overviewOfTallies(tallies);
}

bool overviewIsFirstView(const RunList& runs, int maxKernels, int maxGpus, const CancelToken& cancel)
{
    DistinctText kernels;
    DistinctText gpus;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        if (cancel.cancelledEvery(i))
            return false; // superseded: dropped by the caller
        const Run& run = *runs[i];
        kernels.insert(run.kernel);
        gpus.insert(run.gpuProduct.isEmpty() ? run.gpuSlug : run.gpuProduct); // gpuDisplayName(), not a copy
        if (kernels.values().size() > maxKernels || gpus.values().size() > maxGpus)
            return true;
    }
    return false;
}

} // namespace kix
