// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/benchmarkspec.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

namespace kix {

// One swept shape key and its values: "channels=32,64,...,2048".
struct SweepAxis
{
    QString key; // batch, channels, hidden or channels_per_group
    QList<qint64> values;
};

// What a user asks to benchmark (`kix bench`, the Benchmark panel): a base spec (shape, timing, device) and the
// lists to cross. Empty passes, dtypes or implementations mean the base spec's own value.
struct BenchmarkRequest
{
    BenchmarkSpec base;
    QList<Pass> passes;
    QList<DType> dtypes;
    QStringList implementations;
    QList<SweepAxis> sweeps;
};

// The one sweep grammar. "32,64,...,2048" -> 32 64 128 ... 2048. Plain lists as they are; "a,b,...,z" is
// geometric when b is a multiple of a and z = a * (b/a)^k, else arithmetic with step b - a ending exactly at z.
// False with a message when the list is malformed.
bool parseSweepValues(const QString& text, QList<qint64>& values, QString& error);

// "KEY=VALUES" with KEY batch (M), channels (C), hidden (H) or channels_per_group; VALUES as parseSweepValues.
bool parseSweepAxis(const QString& text, SweepAxis& axis, QString& error);

// Every (pass, shape, dtype, implementation) of the request, in that nesting order: passes outermost, shapes in
// sweep order (the first sweep outermost), then dtypes, then implementations. Specs are not validated here.
QVector<BenchmarkSpec> expandRequest(const BenchmarkRequest& request);

} // namespace kix
