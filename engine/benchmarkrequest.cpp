// SPDX-License-Identifier: Apache-2.0
#include "engine/benchmarkrequest.h"

#include <QHash>

namespace kix {
namespace {

bool parseCount(const QString& text, qint64& value)
{
    bool ok = false;
    value = text.trimmed().toLongLong(&ok);
    return ok;
}

void setAxis(BenchmarkSpec& spec, const QString& key, qint64 value)
{
    if (key == QLatin1String("batch"))
        spec.batch = value;
    else if (key == QLatin1String("channels"))
        spec.channels = value;
    else if (key == QLatin1String("hidden"))
        spec.hidden = value;
    else
        spec.channelsPerGroup = value;
}

} // namespace

bool parseSweepValues(const QString& text, QList<qint64>& values, QString& error)
{
    values.clear();
    const QStringList parts = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    const int ellipsis = int(parts.indexOf(QStringLiteral("...")));
    QList<qint64> given;
    for (int i = 0; i < parts.size(); ++i) {
        if (i == ellipsis)
            continue;
        qint64 v = 0;
        if (!parseCount(parts[i], v) || v <= 0) {
            error = QStringLiteral("'%1' is not a positive integer").arg(parts[i].trimmed());
            return false;
        }
        given << v;
    }
    if (given.isEmpty()) {
        error = QStringLiteral("no values");
        return false;
    }
    if (ellipsis < 0) {
        values = given;
        return true;
    }
    if (ellipsis != 2 || parts.size() != 4 || given[1] <= given[0] || given[2] < given[1]) {
        error = QStringLiteral("expected A,B,...,Z with A < B <= Z (got '%1')").arg(text);
        return false;
    }
    const qint64 a = given[0], b = given[1], z = given[2];
    constexpr int kMaxValues = 4096;
    if (b % a == 0) {
        QList<qint64> geometric;
        for (qint64 v = a; v <= z && geometric.size() < kMaxValues; v *= b / a)
            geometric << v;
        if (geometric.last() == z) {
            values = geometric;
            return true;
        }
    }
    if ((z - a) % (b - a) != 0 || (z - a) / (b - a) >= kMaxValues) {
        error = QStringLiteral("'%1' reaches neither %2 geometrically nor arithmetically").arg(text).arg(z);
        return false;
    }
    for (qint64 v = a; v <= z; v += b - a)
        values << v;
    return true;
}

bool parseSweepAxis(const QString& text, SweepAxis& axis, QString& error)
{
    const int equals = int(text.indexOf(QLatin1Char('=')));
    if (equals <= 0) {
        error = QStringLiteral("--sweep expects KEY=V1,V2,... (got '%1')").arg(text);
        return false;
    }
    const QString key = text.left(equals).trimmed().toLower();
    static const QHash<QString, QString> keys = {
        { QStringLiteral("batch"), QStringLiteral("batch") },
        { QStringLiteral("m"), QStringLiteral("batch") },
        { QStringLiteral("channels"), QStringLiteral("channels") },
        { QStringLiteral("c"), QStringLiteral("channels") },
        { QStringLiteral("hidden"), QStringLiteral("hidden") },
        { QStringLiteral("h"), QStringLiteral("hidden") },
        { QStringLiteral("channels_per_group"), QStringLiteral("channels_per_group") },
        { QStringLiteral("channels-per-group"), QStringLiteral("channels_per_group") },
    };
    if (!keys.contains(key)) {
        error = QStringLiteral("--sweep: unknown key '%1' (expected batch, channels, hidden or channels_per_group)")
                    .arg(text.left(equals));
        return false;
    }
    axis.key = keys.value(key);
    if (!parseSweepValues(text.mid(equals + 1), axis.values, error)) {
        error = QStringLiteral("--sweep %1: %2").arg(axis.key, error);
        return false;
    }
    return true;
}

QVector<BenchmarkSpec> expandRequest(const BenchmarkRequest& request)
{
    QVector<BenchmarkSpec> shapes { request.base };
    for (const SweepAxis& axis : request.sweeps) {
        QVector<BenchmarkSpec> next;
        for (const BenchmarkSpec& s : shapes)
            for (const qint64 v : axis.values) {
                BenchmarkSpec copy = s;
                setAxis(copy, axis.key, v);
                next << copy;
            }
        shapes = next;
    }
    const QList<Pass> passes = request.passes.isEmpty() ? QList<Pass> { request.base.pass } : request.passes;
    const QList<DType> dtypes = request.dtypes.isEmpty() ? QList<DType> { request.base.dtype } : request.dtypes;
    const QStringList implementations
        = request.implementations.isEmpty() ? QStringList { request.base.implementation } : request.implementations;
    QVector<BenchmarkSpec> specs;
    specs.reserve(passes.size() * shapes.size() * dtypes.size() * implementations.size());
    for (const Pass p : passes)
        for (const BenchmarkSpec& s : shapes)
            for (const DType d : dtypes)
                for (const QString& name : implementations) {
                    BenchmarkSpec spec = s;
                    spec.pass = p;
                    spec.dtype = d;
                    spec.implementation = name.trimmed();
                    specs << spec;
                }
    return specs;
}

} // namespace kix
