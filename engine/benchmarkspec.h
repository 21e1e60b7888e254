// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/deviceinfo.h"
#include "kernels/groupnorm_math.h"

#include <QString>
#include <QtGlobal>

namespace kix {

enum class Pass { Forward, Backward, Full };
using DType = gn::DType;

QString passName(Pass pass); // "forward", "backward", "full"
bool parsePass(const QString& text, Pass& pass);
QString dtypeName(DType dtype); // "fp32", "bf16", "fp16"
bool parseDType(const QString& text, DType& dtype);

// How the last-level cache is emptied before every timed repetition (untimed). Write: a write of a buffer
// larger than the cache (do_bench's `cache.zero_()`; the CPU backend's write, the CUDA backend's
// cudaMemsetAsync), the default for every implementation in a comparison, torch included. ReadSweep (CUDA
// only): a read of such a buffer through L2, which leaves the L2 clean and so times a kernel without the
// write-back of its predecessor's dirty lines: an option, never compared with Write runs unmarked.
enum class CacheFlush { Write, ReadSweep };
QString cacheFlushName(CacheFlush flush); // "write", "read_sweep" (what the protocol records)

// How a run is timed (modelled on triton.testing.do_bench).
struct TimingSettings
{
    double warmupMs = 25; // warm-up by time, ms
    double repMs = 100; // repetitions by time budget, ms of measured time
    bool noiseStop = false; // keep going past repMs until the relative standard error is small enough
    double noiseTarget = 0.005; // relative standard error of the mean that stops a noise-based run
    double maxMs = 2000; // time cap of a noise-based run, ms of measured time
    int minSamples = 5; // never fewer, even when one repetition is longer than the budget
    int maxSamples = 100000; // never more, however fast the repetition
    // CUDA only: each repetition replays the pass as one CUDA graph launch (captured once) instead of one
    // launch per kernel, which takes the host's launch overhead out of short passes. Part of the protocol.
    bool cudaGraph = false;
    CacheFlush cacheFlush = CacheFlush::Write; // part of the protocol when not Write
};

// One benchmark: an op, a pass, a workload, an implementation, a device and how to time it.
struct BenchmarkSpec
{
    QString op = QStringLiteral("group_norm");
    Pass pass = Pass::Forward;
    qint64 batch = 128; // M
    qint64 channels = 2048; // C
    qint64 hidden = 512; // H, elements per channel
    qint64 channelsPerGroup = 4;
    DType dtype = DType::F32;
    double eps = 1e-6;
    QString implementation; // empty: the backend's default
    QString device = QStringLiteral("cpu"); // DeviceInfo::id
    TimingSettings timing;
    quint64 seed = 20260228; // inputs are a pure function of it (gn::initInput)

    qint64 groups() const { return channelsPerGroup > 0 ? channels / channelsPerGroup : 0; }
    qint64 rows() const { return batch * groups(); } // one row = one (n, g) pair
    qint64 rowLength() const { return channelsPerGroup * hidden; }
    qint64 elements() const { return batch * channels * hidden; }
    // The shape as the kernels take it (kernels/groupnorm_math.h).
    gn::Shape shape() const;

    // "batch128-channels2048-channels_per_group4-hidden512-fp32": keys in alphabetical order, dtype last,
    // eps left out (as in the seed's externalId).
    QString workloadSlug() const;

    // The least a pass must read and write, bytes: each input read once, each output written once.
    // Full is Forward + Backward (5 tensors: x and y, then x, dy and dx): two passes, each at its own floor,
    // as every implementation in the comparison (torch included) runs them.
    qint64 minimumBytes() const;

    // Device memory the prepared benchmark holds, bytes (tensors, statistics, partial sums; no flush buffer).
    qint64 footprintBytes() const;
};

// Empty when the spec can run on the device; otherwise why not, in words for the user. `device` may be
// null (then the memory check is skipped).
QString validateSpec(const BenchmarkSpec& spec, const DeviceInfo* device);

} // namespace kix
