// SPDX-License-Identifier: Apache-2.0
#include "model/filter/rowmapping.h"

#include "model/filter/runtablemodel.h"
#include "model/jobs/pools.h"
#include "model/workload.h"

#include <QHash>
#include <QThreadPool>
#include <QtConcurrent>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>

namespace kix {

namespace {

// Latency first, then the other metrics by name and unit.
int metricOrder(const Run& a, const Run& b)
{
    if (a.isLatency() != b.isLatency())
        return a.isLatency() ? -1 : 1;
    const int byName = QString::compare(a.metricName(), b.metricName(), Qt::CaseInsensitive);
    return byName != 0 ? byName : QString::compare(a.unit, b.unit, Qt::CaseInsensitive);
}

enum class KeyKind { Workload, MetricNumber, Number, Time, Text };

KeyKind keyKind(int column)
{
    switch (column) {
    case RunTableModel::WorkloadColumn:
        return KeyKind::Workload;
    case RunTableModel::MedianColumn:
    case RunTableModel::P20Column:
    case RunTableModel::P80Column:
        return KeyKind::MetricNumber;
    case RunTableModel::SpreadColumn:
    case RunTableModel::BandwidthColumn:
        return KeyKind::Number;
    case RunTableModel::ObservedAtColumn:
        return KeyKind::Time;
    default:
        return KeyKind::Text;
    }
}

double numberKey(const Run& run, int column)
{
    switch (column) {
    case RunTableModel::MedianColumn:
        return run.median;
    case RunTableModel::P20Column:
        return run.p20;
    case RunTableModel::P80Column:
        return run.p80;
    case RunTableModel::SpreadColumn:
        return run.spread();
    case RunTableModel::BandwidthColumn:
        return run.achievedGBs();
    default:
        return std::nan("");
    }
}

bool numberLess(double a, double b)
{
    if (std::isnan(a) || std::isnan(b)) // empty cells sort last
        return !std::isnan(a) && std::isnan(b);
    return a < b;
}

// Thrown by a comparator that finds the build superseded: a sort of a million rows stops within milliseconds.
struct Cancelled
{
};

class CancelCheck
{
public:
    explicit CancelCheck(const std::function<bool()>& cancelled)
        : m_cancelled(cancelled)
    {
    }
    void poll()
    {
        if (m_cancelled && (++m_calls & 0xffff) == 0 && m_cancelled())
            throw Cancelled();
    }

private:
    const std::function<bool()>& m_cancelled;
    unsigned m_calls = 0;
};

// Ranks of keys compared by `cmp` (< 0, 0, > 0): equal keys share a rank. Few distinct values (kernels, metrics)
// are ranked once; each row then compares two ints.
template<typename Key, typename Cmp>
std::vector<int> rankKeys(const std::vector<Key>& keys, Cmp cmp)
{
    QHash<Key, int> distinct;
    std::vector<int> ofRow(keys.size());
    std::vector<Key> values;
    for (size_t i = 0; i < keys.size(); ++i) {
        auto it = distinct.constFind(keys[i]);
        if (it == distinct.constEnd()) {
            it = distinct.insert(keys[i], int(values.size()));
            values.push_back(keys[i]);
        }
        ofRow[i] = it.value();
    }
    std::vector<int> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return cmp(values[a], values[b]) < 0; });
    std::vector<int> rank(values.size());
    int r = 0;
    for (size_t i = 0; i < order.size(); ++i) {
        if (i > 0 && cmp(values[order[i - 1]], values[order[i]]) != 0)
            ++r;
        rank[order[i]] = r;
    }
    for (int& v : ofRow)
        v = rank[v];
    return ofRow;
}

QString metricKey(const Run& run)
{
    return (run.isLatency() ? QStringLiteral("1") : QStringLiteral("0")) + QChar(0) + run.metricName() + QChar(0)
        + run.unit;
}

// Sorts `rows` (source rows, ascending) stably by the column; descending keeps ties in source order too.
void sortRows(std::vector<int>& rows, const RunList& runs, int column, Qt::SortOrder order, CancelCheck& check)
{
    const size_t n = rows.size();
    std::vector<int> pos(n); // positions into rows, sorted
    std::iota(pos.begin(), pos.end(), 0);
    auto sortBy = [&](auto less) {
        if (order == Qt::AscendingOrder)
            std::stable_sort(pos.begin(), pos.end(), [&](int a, int b) {
                check.poll();
                return less(a, b);
            });
        else
            std::stable_sort(pos.begin(), pos.end(), [&](int a, int b) {
                check.poll();
                return less(b, a);
            });
    };
    const auto run = [&](int p) -> const Run& { return *runs[rows[size_t(p)]]; };
    switch (keyKind(column)) {
    case KeyKind::Workload:
        sortBy([&](int a, int b) { return compareWorkloads(run(a), run(b)) < 0; });
        break;
    case KeyKind::MetricNumber:
    case KeyKind::Number: {
        std::vector<int> metric;
        if (keyKind(column) == KeyKind::MetricNumber) {
            // each distinct metric once (a run holding it stands for it), ranked in runLess's metric order
            QHash<QString, int> distinct;
            std::vector<int> holder;
            std::vector<int> ofRow(n);
            for (size_t i = 0; i < n; ++i) {
                auto it = distinct.constFind(metricKey(run(int(i))));
                if (it == distinct.constEnd()) {
                    it = distinct.insert(metricKey(run(int(i))), int(holder.size()));
                    holder.push_back(int(i));
                }
                ofRow[i] = it.value();
            }
            const std::vector<int> rank = rankKeys(holder, [&](int a, int b) { return metricOrder(run(a), run(b)); });
            metric.resize(n);
            for (size_t i = 0; i < n; ++i)
                metric[i] = rank[size_t(ofRow[i])];
        }
        std::vector<double> value(n);
        for (size_t i = 0; i < n; ++i)
            value[i] = numberKey(run(int(i)), column);
        sortBy([&](int a, int b) {
            if (!metric.empty() && metric[size_t(a)] != metric[size_t(b)])
                return metric[size_t(a)] < metric[size_t(b)];
            return numberLess(value[size_t(a)], value[size_t(b)]);
        });
        break;
    }
    case KeyKind::Time:
        sortBy([&](int a, int b) { return run(a).observedAt < run(b).observedAt; });
        break;
    case KeyKind::Text: {
        std::vector<QString> keys(n);
        for (size_t i = 0; i < n; ++i)
            keys[i] = RunTableModel::displayText(run(int(i)), column);
        const std::vector<int> rank = rankKeys(
            keys, [](const QString& a, const QString& b) { return QString::compare(a, b, Qt::CaseInsensitive); });
        sortBy([&](int a, int b) { return rank[size_t(a)] < rank[size_t(b)]; });
        break;
    }
    }
    std::vector<int> sorted(n);
    for (size_t i = 0; i < n; ++i)
        sorted[i] = rows[size_t(pos[i])];
    rows.swap(sorted);
}

} // namespace

bool runLess(const Run& a, const Run& b, int column)
{
    switch (keyKind(column)) {
    case KeyKind::Workload:
        return compareWorkloads(a, b) < 0;
    case KeyKind::MetricNumber:
        if (const int metric = metricOrder(a, b); metric != 0)
            return metric < 0;
        return numberLess(numberKey(a, column), numberKey(b, column));
    case KeyKind::Number:
        return numberLess(numberKey(a, column), numberKey(b, column));
    case KeyKind::Time:
        return a.observedAt < b.observedAt;
    case KeyKind::Text:
        return QString::compare(
                   RunTableModel::displayText(a, column), RunTableModel::displayText(b, column), Qt::CaseInsensitive)
            < 0;
    }
    return false;
}

RowMapping computeRowMapping(const RowMappingInput& in, const std::function<bool()>& cancelled)
{
    RowMapping out;
    const RunList& runs = in.runs;
    const qsizetype n = runs.size();
    const bool sorted = in.sortColumn >= 0 && in.sortColumn < RunTableModel::ColumnCount;
    if (in.filter.isEmpty() && !sorted) { // every row, in source order
        out.toSource.resize(size_t(n));
        std::iota(out.toSource.begin(), out.toSource.end(), 0);
        out.fromSource = out.toSource;
        out.visible = runs;
        out.index = in.index;
        out.complete = !(cancelled && cancelled());
        return out;
    }
    std::vector<char> accepted(size_t(n), 1);
    out.index = in.index;
    if (!in.filter.isEmpty()) {
        // The filter over the index: each clause once per distinct value of the shared fields, then per run a few
        // lookups (and its own fields for a word no shared field holds).
        out.index = FilterIndex::extend(in.index, runs);
        const FilterIndex::Matcher matcher(*out.index, in.filter);
        constexpr qsizetype chunk = 16384;
        QVector<qsizetype> starts;
        for (qsizetype s = 0; s < n; s += chunk)
            starts << s;
        const std::vector<int>* previous = in.narrowFrom.get();
        const qsizetype narrowed = previous ? qsizetype(previous->size()) : 0;
        // Each chunk publishes its writes with a release on `chunksDone`, read with acquire once the map returns:
        // the ordering blockingMap gives lives inside libQt6Concurrent, where ThreadSanitizer cannot see it.
        std::atomic<qsizetype> chunksDone { 0 };
        QtConcurrent::blockingMap(filterChunkPool(), starts, [&](qsizetype start) {
            if (!(cancelled && cancelled())) {
                const qsizetype end = std::min(n, start + chunk);
                for (qsizetype i = start; i < std::min(end, narrowed); ++i)
                    accepted[size_t(i)] = (*previous)[size_t(i)] < 0 ? 0 : 1;
                matcher.filterRows(start, end, runs, accepted.data());
            }
            chunksDone.fetch_add(1, std::memory_order_release);
        });
        [[maybe_unused]] const qsizetype ran = chunksDone.load(std::memory_order_acquire);
        Q_ASSERT(ran == starts.size()); // blockingMap returns once every chunk ran
    }
    if (cancelled && cancelled())
        return out;
    if (sorted && in.sortedAll && qsizetype(in.sortedAll->size()) == n) {
        out.sortedAll = in.sortedAll; // pick the accepted rows out of the sort: O(n)
        out.toSource.reserve(size_t(n));
        for (int row : *in.sortedAll) {
            if (accepted[size_t(row)])
                out.toSource.push_back(row);
        }
    } else {
        out.toSource.reserve(size_t(n));
        for (qsizetype i = 0; i < n; ++i) {
            if (accepted[size_t(i)])
                out.toSource.push_back(int(i));
        }
        if (sorted) {
            CancelCheck check(cancelled);
            try {
                sortRows(out.toSource, runs, in.sortColumn, in.order, check);
            } catch (const Cancelled&) {
                return RowMapping();
            }
            if (qsizetype(out.toSource.size()) == n) // every row: the next filter change picks out of it
                out.sortedAll = std::make_shared<const std::vector<int>>(out.toSource);
        }
    }
    if (cancelled && cancelled())
        return RowMapping();
    if (!sorted && qsizetype(out.toSource.size()) == n) { // every row passed, in source order: nothing to copy
        out.fromSource = out.toSource;
        out.visible = runs;
        out.complete = true;
        return out;
    }
    out.fromSource.assign(size_t(n), -1);
    out.visible.reserve(qsizetype(out.toSource.size()));
    for (size_t p = 0; p < out.toSource.size(); ++p) {
        out.fromSource[size_t(out.toSource[p])] = int(p);
        out.visible.append(runs[out.toSource[p]]);
    }
    out.complete = true;
    return out;
}

} // namespace kix
