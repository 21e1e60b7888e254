// SPDX-License-Identifier: Apache-2.0
#pragma once
// The interface every benchmark backend implements (CPU in cpubackend.cpp, CUDA in cudabackend.cpp).
//
// Division of work: the backend owns device memory, kernels and the device timer; the shared harness
// (timingharness.h) owns warm-up, repetition counts, statistics and the noise-based stop, and the shared
// correctness check (correctness.h) compares outputs with the float64 reference. A repetition as the
// harness drives it:
//     prepared->flushCaches();            // outside the timed window
//     double ns = prepared->timedRun();   // one repetition of the pass, device-timed
//
// Data layout (same for every backend, so one reference checks them all):
//   x, y, dy, dx: M x C x H, contiguous, in the spec's storage dtype (fp32, bf16 or fp16); math in fp32.
//   weight, bias, dweight, dbias: C floats (fp32 always). mean, rstd: M x G floats (fp32), row n*G+g.
//   Inputs are generated from the spec's seed by gn::initInput() in kernels/groupnorm_math.h, rounded to
//   the storage dtype (the host regenerates them for the reference; nothing is copied back).
//
// Errors: a backend throws BackendError (any std::exception is caught too) with a message naming the call
// that failed; the engine catches it at the run boundary, records the run as failed and goes on with the
// next configuration. Nothing throws out of the engine.
//
// Registration: backendregistry.cpp lists the backends; a CUDA backend adds one line there, guarded by
// `#if KIX_HAVE_CUDA` (kix/config.h).

#include "engine/benchmarkspec.h"
#include "engine/deviceinfo.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <nlohmann/json.hpp>

#include <memory>
#include <stdexcept>

namespace kix {

class BackendError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// Outputs a pass produces, for readOutput(). Forward: Y, Mean, Rstd. Backward: Dx, DWeight, DBias.
// Full: all six.
enum class Output { Y, Mean, Rstd, Dx, DWeight, DBias };

// Buffers and inputs of one spec on one device, ready to run. Created by Backend::prepare(); destroyed
// (freeing device memory) before the next spec is prepared.
class PreparedBenchmark
{
public:
    virtual ~PreparedBenchmark() = default;

    // One repetition of the spec's pass, untimed; returns when the device has finished.
    // Backward runs the backward kernels only (prepare() ran the forward once for mean and rstd);
    // Full runs forward then backward.
    virtual void run() = 0;

    // One repetition timed by the device's own timer (CPU: steady_clock around the call; CUDA: a pair
    // of events on the stream, synchronised). Returns the duration in ns.
    virtual double timedRun() = 0;

    // Evicts the device's caches so the next repetition reads from memory (CPU: writes a buffer larger
    // than the last-level cache; CUDA: memset a buffer larger than L2). Never inside the timed window.
    virtual void flushCaches() = 0;

    // Copies `count` elements of an output of the last run, starting at element `offset`, to host as
    // float (bf16/fp16 values convert exactly). Used by the correctness check for sampled rows.
    virtual void readOutput(Output which, qint64 offset, qint64 count, float* destination) = 0;

    // What this run adds to its document, asked once right after timing (or after a failed check), so a
    // backend can read the device's state as the measurement ends: clock readings, the launch plan...
    // Written as run.spec.sourceNative.engine.deviceDetails; not hashed into any digest. A string member
    // "warning" (e.g. the clocks looked throttled) is also shown to the user by `kix bench`. Empty by default.
    virtual nlohmann::json runDetails() { return nlohmann::json::object(); }
};

class Backend
{
public:
    virtual ~Backend() = default;

    // "cpu", "cuda": the prefix of DeviceInfo::id.
    virtual QString name() const = 0;

    // Devices found on this machine (discovered once, cached). Empty when none is usable.
    virtual QVector<DeviceInfo> devices() = 0;

    // Why devices() is empty, naming the underlying error ("cudaErrorNoDevice (no CUDA-capable device is
    // detected)"), so that refusing `--device cuda` can say what is wrong with the machine. Empty when
    // devices were found or there is nothing to say.
    virtual QString unavailableReason() const { return {}; }

    // Names of the implementations this backend benchmarks ("kix-cpu"); the first is the default.
    virtual QStringList implementations() const = 0;

    // What identifies an implementation's code (name, backend, version, compile flags, launch policy):
    // hashed into implementationDigest, so runs of the same code share a digest.
    virtual nlohmann::json implementationInfo(const QString& implementation) const = 0;

    // ExecutionEnvironment.spec for a device: {hardware {...}, software {...}}. Only what stays the same
    // from one session to the next (no clocks in flight, no dates), since it is hashed into
    // environmentDigest.
    virtual nlohmann::json environment(const DeviceInfo& device) = 0;

    // Name of the timer timedRun() uses, for the protocol: "steady_clock", "cuda_events".
    virtual QString timerName() const = 0;

    // Copy bandwidth in GB/s (1e9 bytes/s), counting bytes read plus bytes written, of a copy much larger
    // than the device's caches (CPU: memcpy on all cores; CUDA: device-to-device copy). The engine calls
    // it once per session and device.
    virtual double measureCopyBandwidth(const DeviceInfo& device) = 0;

    // Allocates the spec's tensors on the device and fills the inputs from spec.seed. The spec has been
    // validated (validateSpec) against the device. Throws BackendError when allocation fails.
    virtual std::unique_ptr<PreparedBenchmark> prepare(const BenchmarkSpec& spec, const DeviceInfo& device) = 0;
};

} // namespace kix
