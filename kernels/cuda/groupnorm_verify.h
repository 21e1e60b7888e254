// SPDX-License-Identifier: Apache-2.0
#pragma once
// Correctness of the CUDA GroupNorm implementations against the float64 reference (kernels/groupnorm_reference.h),
// shared by tests/kernels/cuda/tst_cuda_groupnorm and kix_cuda_check. Plain C++.
//
// One case: inputs generated on the device from a seed (fillInput), every buffer between guard regions that
// must be unchanged at the end (256 bytes before and after each input, output and workspace), every output
// poisoned with NaN bytes before each run, forward then backward with the forward's mean and rstd, every output
// compared with the reference on the same (storage-rounded) inputs, then backward run again and dx, dweight, dbias
// compared bit for bit with the first run.

#include "kernels/cuda/groupnorm_cuda.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace kix::cuda {

struct VerifyCase
{
    std::string name; // "odd-hidden", used in test and log output
    GroupNormShape shape;
    bool misaligned = false; // x, dy, y and dx start one element past a 16-byte boundary
};

// The table: odd and tiny H, H = 1, rows of one warp and of 1024 threads, rows longer than a block holds,
// fewer rows than SMs, large channelsPerGroup, misaligned pointers, a slice of the seed workload.
// `quick`: the small cases only (for compute-sanitizer).
std::vector<VerifyCase> verificationCases(bool quick);

struct VerifyResult
{
    double tolerance = 0; // gn::ref::tolerance(dtype): y and dx, stored in the dtype
    // mean, rstd, dweight and dbias are fp32 whatever the storage dtype: held to fp32's tolerance.
    double fp32Tolerance = 0;
    double errorY = 0, errorMean = 0, errorRstd = 0, errorDx = 0, errorDWeight = 0, errorDBias = 0;
    bool reproducible = false; // second backward bitwise equal
    // FNV-1a over the bytes of y, mean, rstd (forward) and dx, dweight, dbias (first backward): two runs of a
    // deterministic implementation on the same inputs give the same digest.
    std::uint64_t digest = 0;
    // The buffers (inputs, outputs, workspaces) whose guard bytes before or after the data changed: "y, dx"
    std::string guardsBroken;
    std::string plan; // fusedLaunchDescription of the forward and backward
    double worst() const;
    bool passed() const
    {
        return errorY <= tolerance && errorDx <= tolerance
            && std::max({ errorMean, errorRstd, errorDWeight, errorDBias }) <= fp32Tolerance && reproducible
            && guardsBroken.empty();
    }
    std::string summary() const; // "y 1.2e-07 mean ... dbias 3e-08 (tolerance 1e-05), reproducible"
};

// Runs one case on the current device. Throws CudaError when a CUDA call fails.
VerifyResult verifyCase(GroupNormImpl impl, gn::DType dtype, const VerifyCase& c, std::uint64_t seed);

class GroupNormBench;

// The check before timing, as the engine's checkCorrectness does it: the benchmark's outputs poisoned with NaN,
// one run, then 16 evenly spread rows of y, mean, rstd and dx and up to 3 groups' dweight and dbias compared
// with the float64 reference (every row and channel when the tensor is small). `reproducible` is not
// checked here (left true). Throws CudaError when a CUDA call fails.
VerifyResult checkBenchOutputs(GroupNormBench& bench);

// "fp32", "bf16", "fp16".
const char* dtypeText(gn::DType dtype);

} // namespace kix::cuda
