// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (resolveWorkload): when no case answers the request, the cases nearest to it on each
// requested axis, and those that match every axis but not the dtype or GPU.

#include "model/compare/resolvematch.h"

#include <QSet>
#include <QString>
#include <QVector>

namespace kix::resolving {

// A case near the request on one axis.
struct Near
{
    int info;
    ResolveKind kind;
    QString axis;
    double ratio;
    int extra; // mismatches besides the axis
    double order; // distance on the axis
    double others; // distance on the other numeric axes
    int axisIndex;
};

// The fewest mismatches of any case that is not a suite.
int fewestMismatches(const QVector<CaseInfo>& infos);
// The near cases on every requested axis, nearest first. Only the cases with the fewest mismatches are near: a
// case that differs in one more field is farther, however close its values.
QVector<Near> nearCases(const QVector<CaseInfo>& infos, const QVector<KeyValue>& axes, int fewestOverall);
// Cases not taken that hold every requested axis value but differ in dtype or GPU: the fewest such differences.
QVector<int> otherContextCases(const QVector<CaseInfo>& infos, const QSet<int>& taken, int fewestOverall);

} // namespace kix::resolving
