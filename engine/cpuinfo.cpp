// SPDX-License-Identifier: Apache-2.0
#include "engine/cpuinfo.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSysInfo>

#include <thread>

#include <unistd.h>

namespace kix {
namespace {

QByteArray readSmallFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.read(1 << 20);
}

// The value of the first "key : value" line of /proc/cpuinfo or /proc/meminfo.
QString field(const QByteArray& text, const QByteArray& key)
{
    for (const QByteArray& line : text.split('\n')) {
        const int colon = line.indexOf(':');
        if (colon > 0 && line.left(colon).trimmed() == key)
            return QString::fromUtf8(line.mid(colon + 1).trimmed());
    }
    return {};
}

// "32768K" -> 33554432
qint64 parseCacheSize(QString text)
{
    text = text.trimmed().toUpper();
    qint64 factor = 1;
    if (text.endsWith(QLatin1Char('K')))
        factor = 1024;
    else if (text.endsWith(QLatin1Char('M')))
        factor = 1024 * 1024;
    if (factor != 1)
        text.chop(1);
    bool ok = false;
    const qint64 value = text.toLongLong(&ok);
    return ok ? value * factor : 0;
}

qint64 lastLevelCache()
{
    const QDir dir(QStringLiteral("/sys/devices/system/cpu/cpu0/cache"));
    int bestLevel = 0;
    qint64 bestSize = 0;
    const QStringList entries = dir.entryList({ QStringLiteral("index*") }, QDir::Dirs);
    for (const QString& entry : entries) {
        const QString base = dir.filePath(entry);
        const QString type = QString::fromUtf8(readSmallFile(base + QStringLiteral("/type"))).trimmed();
        if (type == QStringLiteral("Instruction"))
            continue;
        const int level = QString::fromUtf8(readSmallFile(base + QStringLiteral("/level"))).trimmed().toInt();
        const qint64 size = parseCacheSize(QString::fromUtf8(readSmallFile(base + QStringLiteral("/size"))));
        if (level > bestLevel || (level == bestLevel && size > bestSize)) {
            bestLevel = level;
            bestSize = size;
        }
    }
#ifdef _SC_LEVEL3_CACHE_SIZE
    if (bestSize <= 0)
        bestSize = sysconf(_SC_LEVEL3_CACHE_SIZE) > 0 ? sysconf(_SC_LEVEL3_CACHE_SIZE) : 0;
#endif
    return bestSize;
}

} // namespace

CpuDescription describeCpu()
{
    CpuDescription cpu;
    const QByteArray cpuinfo = readSmallFile(QStringLiteral("/proc/cpuinfo"));
    cpu.model = field(cpuinfo, "model name");
    if (cpu.model.isEmpty())
        cpu.model = QSysInfo::currentCpuArchitecture() + QStringLiteral(" CPU");
    const QString vendorId = field(cpuinfo, "vendor_id");
    if (vendorId == QStringLiteral("AuthenticAMD"))
        cpu.vendor = QStringLiteral("amd");
    else if (vendorId == QStringLiteral("GenuineIntel"))
        cpu.vendor = QStringLiteral("intel");
    else
        cpu.vendor = vendorId.toLower();
    cpu.architecture = QSysInfo::currentCpuArchitecture();
    cpu.logicalCpus = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));

    const QString memTotal = field(readSmallFile(QStringLiteral("/proc/meminfo")), "MemTotal"); // "24000000 kB"
    cpu.memoryBytes = memTotal.section(QLatin1Char(' '), 0, 0).toLongLong() * 1024;
    if (cpu.memoryBytes <= 0) {
        const long pages = sysconf(_SC_PHYS_PAGES);
        const long pageSize = sysconf(_SC_PAGE_SIZE);
        cpu.memoryBytes = pages > 0 && pageSize > 0 ? qint64(pages) * pageSize : 0;
    }
    cpu.lastLevelCacheBytes = lastLevelCache();
    return cpu;
}

QString cpuSlug(const QString& model)
{
    QString text = model.toLower();
    text.remove(QRegularExpression(QStringLiteral("\\((r|tm|c)\\)")));
    const int at = text.indexOf(QLatin1Char('@'));
    if (at >= 0)
        text.truncate(at);
    text.remove(QRegularExpression(QStringLiteral("\\b(cpu|processor|\\d+-core)\\b")));
    text.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    while (text.startsWith(QLatin1Char('-')))
        text.remove(0, 1);
    while (text.endsWith(QLatin1Char('-')))
        text.chop(1);
    return text.isEmpty() ? QStringLiteral("cpu") : QStringLiteral("cpu-") + text;
}

QString compilerDescription()
{
#if defined(__clang__)
    return QStringLiteral("Clang ") + QLatin1String(__clang_version__);
#elif defined(__GNUC__)
    return QStringLiteral("GCC %1.%2.%3").arg(__GNUC__).arg(__GNUC_MINOR__).arg(__GNUC_PATCHLEVEL__);
#elif defined(_MSC_VER)
    return QStringLiteral("MSVC %1").arg(_MSC_VER);
#else
    return QStringLiteral("unknown");
#endif
}

QString kernelBuildFlags()
{
#ifdef KIX_KERNEL_FLAGS
    return QString::fromUtf8(KIX_KERNEL_FLAGS).simplified();
#else
    return {};
#endif
}

QString buildType()
{
#ifdef KIX_BUILD_TYPE
    return QString::fromUtf8(KIX_BUILD_TYPE);
#else
    return {};
#endif
}

} // namespace kix
