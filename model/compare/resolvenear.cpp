// SPDX-License-Identifier: Apache-2.0
#include "model/compare/resolvenear.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kix::resolving {

namespace {

// The distance of a case from the request on the numeric axes other than `axis`.
double otherDistance(const CaseInfo& info, const QVector<KeyValue>& axes, const QString& axis)
{
    double sum = 0;
    for (const KeyValue& a : std::as_const(axes)) {
        const WorkloadParam* p = a.key == axis ? nullptr : paramOf(*info.run, a.key);
        if (p && std::isfinite(numberOf(a.value)) && std::isfinite(p->number))
            sum += distance(numberOf(a.value), p->number);
    }
    return sum;
}

// The cases nearest below and above the request on axis `a` (or, on a text axis, every other value).
void appendNearOnAxis(
    const QVector<CaseInfo>& infos, const QVector<KeyValue>& axes, int a, int fewestOverall, QVector<Near>& near)
{
    const KeyValue& axis = axes[a];
    const double requested = numberOf(axis.value);
    QVector<int> pool;
    int fewest = std::numeric_limits<int>::max();
    for (int i = 0; i < infos.size(); ++i) {
        const CaseInfo& info = infos[i];
        const WorkloadParam* p = info.suite ? nullptr : paramOf(*info.run, axis.key);
        if (!p || sameValue(axis.value, p->value, p->number))
            continue;
        if (std::isfinite(requested) != std::isfinite(p->number))
            continue; // a number is not near a text
        pool << i;
        fewest = std::min(fewest, int(info.mismatches.size()) - 1);
    }
    QVector<int> kept;
    for (const int i : std::as_const(pool))
        if (int(infos[i].mismatches.size()) - 1 == fewest && fewest + 1 == fewestOverall)
            kept << i;
    if (kept.isEmpty())
        return;
    if (!std::isfinite(requested)) {
        for (const int i : std::as_const(kept))
            near.append(
                { i, ResolveKind::OtherValue, axis.key, nan, fewest, 0, otherDistance(infos[i], axes, axis.key), a });
        return;
    }
    for (const ResolveKind side : { ResolveKind::Below, ResolveKind::Above }) {
        double nearest = nan;
        for (const int i : std::as_const(kept)) {
            const double v = paramOf(*infos[i].run, axis.key)->number;
            if ((side == ResolveKind::Below) != (v < requested))
                continue;
            if (!std::isfinite(nearest) || (side == ResolveKind::Below ? v > nearest : v < nearest))
                nearest = v;
        }
        if (!std::isfinite(nearest))
            continue;
        double closest = std::numeric_limits<double>::infinity();
        for (const int i : std::as_const(kept))
            if (paramOf(*infos[i].run, axis.key)->number == nearest)
                closest = std::min(closest, otherDistance(infos[i], axes, axis.key));
        for (const int i : std::as_const(kept)) {
            if (paramOf(*infos[i].run, axis.key)->number != nearest
                || otherDistance(infos[i], axes, axis.key) != closest)
                continue;
            near.append({ i, side, axis.key, requested != 0 ? nearest / requested : nan, fewest,
                distance(requested, nearest), closest, a });
        }
    }
}

} // namespace

int fewestMismatches(const QVector<CaseInfo>& infos)
{
    int fewestOverall = std::numeric_limits<int>::max();
    for (const CaseInfo& info : std::as_const(infos))
        if (!info.suite)
            fewestOverall = std::min(fewestOverall, int(info.mismatches.size()));
    return fewestOverall;
}

QVector<Near> nearCases(const QVector<CaseInfo>& infos, const QVector<KeyValue>& axes, int fewestOverall)
{
    QVector<Near> near;
    for (int a = 0; a < axes.size(); ++a)
        appendNearOnAxis(infos, axes, a, fewestOverall, near);
    std::stable_sort(near.begin(), near.end(), [](const Near& x, const Near& y) {
        if (x.extra != y.extra)
            return x.extra < y.extra;
        if (x.order != y.order)
            return x.order < y.order;
        return x.axisIndex < y.axisIndex;
    });
    return near;
}

QVector<int> otherContextCases(const QVector<CaseInfo>& infos, const QSet<int>& taken, int fewestOverall)
{
    int fewest = std::numeric_limits<int>::max();
    QVector<int> context;
    for (int i = 0; i < infos.size(); ++i) {
        const CaseInfo& info = infos[i];
        if (info.suite || taken.contains(i))
            continue;
        const bool axesMatch
            = std::none_of(info.mismatches.cbegin(), info.mismatches.cend(), [](const ResolveMismatch& m) {
                  return m.field != QLatin1String("dtype") && m.field != QLatin1String("gpu");
              });
        if (!axesMatch)
            continue;
        context << i;
        fewest = std::min(fewest, int(info.mismatches.size()));
    }
    QVector<int> out;
    for (const int i : std::as_const(context))
        if (int(infos[i].mismatches.size()) == fewest && fewest == fewestOverall)
            out << i;
    return out;
}

} // namespace kix::resolving
