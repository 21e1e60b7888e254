// SPDX-License-Identifier: Apache-2.0
#pragma once
// The small file and run helpers many tests share, in one place: test files of a folder are compiled together (a
// unity build), so a helper defined in two of them would clash or, worse, overload the other.

#include "model/diagnostic.h"
#include "model/run.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <cmath>

namespace kixtest {

// tests/data/model/RELATIVE and tests/data/interop/NAME
inline QString modelDataPath(const QString& relative)
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/model/") + relative;
}
inline QString interopDataPath(const QString& name)
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/interop/") + name;
}

// A file's bytes; empty when it cannot be read.
inline QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Diagnostics one per line, each ending in a newline: what a failed check prints.
inline QString dumpDiagnostics(const kix::Diagnostics& diagnostics)
{
    QString s;
    for (const kix::Diagnostic& d : diagnostics)
        s += d.toString() + QLatin1Char('\n');
    return s;
}

// The first run with this title, or null.
inline kix::RunPtr runByTitle(const kix::RunList& runs, const QString& title)
{
    for (const kix::RunPtr& r : runs) {
        if (r->title == title)
            return r;
    }
    return nullptr;
}

// The value of a run's measurement of `metric` (and `statistic`, when given); NaN when it has none.
inline double measurementValue(const kix::Run& run, const QString& metric, const QString& statistic = QString())
{
    for (const kix::Measurement& m : run.measurements) {
        if (m.metric == metric && (statistic.isEmpty() || m.statistic == statistic))
            return m.value;
    }
    return std::nan("");
}

} // namespace kixtest
