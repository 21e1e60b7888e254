// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QtGlobal>

namespace kix {

// One device a backend can run on, as discovered at start-up.
struct DeviceInfo
{
    QString backend; // "cpu", "cuda"
    QString id; // what --device names: "cpu", "cuda:0"
    int index = 0; // ordinal within the backend (CUDA device number)
    QString name; // as the vendor names it: "AMD EPYC 7763 64-Core Processor", "NVIDIA H200"
    QString slug; // used in externalIds and file names: "cpu-amd-epyc-7763", "nvidia-h200"
    QString vendor; // lower case: "amd", "intel", "nvidia"
    QString architecture; // "x86_64", "sm_90"
    qint64 memoryBytes = 0; // memory the benchmark tensors must fit in (CPU: MemTotal; GPU: global memory)
    int computeUnits = 0; // CPU cores (logical CPUs usable), or SMs
    qint64 cacheBytes = 0; // last-level cache (CPU L3, GPU L2); sizes the cache flush
};

} // namespace kix
