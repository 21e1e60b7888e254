// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QtGlobal>

namespace kix {

// What the CPU backend reports about the host (Linux /proc and /sys, with portable fallbacks).
struct CpuDescription
{
    QString model; // "AMD EPYC 7763 64-Core Processor"
    QString vendor; // "amd", "intel", or the vendor id in lower case
    QString architecture; // "x86_64"
    int logicalCpus = 1;
    qint64 memoryBytes = 0; // MemTotal
    qint64 lastLevelCacheBytes = 0; // the highest cache level's size (0 when unknown)
};

CpuDescription describeCpu();

// "AMD EPYC 7763 64-Core Processor" -> "cpu-amd-epyc-7763"; "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz"
// -> "cpu-intel-xeon-gold-6248".
QString cpuSlug(const QString& model);

// The compiler that built kix ("GCC 12.2.0") and the flags of the kernel library, for the environment.
QString compilerDescription();
QString kernelBuildFlags();
QString buildType();

} // namespace kix
