// SPDX-License-Identifier: Apache-2.0
#include "kernels/cuda/groupnorm_verify.h"

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/groupnorm_bench.h"
#include "kernels/cuda/groupnorm_init.h"
#include "kernels/groupnorm_reference.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace kix::cuda {

namespace {

GroupNormShape shapeOf(std::int64_t m, std::int64_t c, std::int64_t h, std::int64_t cpg)
{
    GroupNormShape s;
    s.batch = m;
    s.channels = c;
    s.hidden = h;
    s.channelsPerGroup = cpg;
    return s;
}

// Device memory with guard regions before and after the data (kGuardBytes each, plus the misalignment):
// filled with kGuardByte before anything runs and checked after the last run, so a kernel that writes past
// either end of an output (or into an input, or past its workspace) fails the case. ASan cannot see into
// device memory, and the allocation's own slack hid such writes before (issue 32).
constexpr std::size_t kGuardBytes = 256; // keeps the data as aligned as cudaMalloc's
constexpr unsigned char kGuardByte = 0xa5;

struct Guarded
{
    Guarded(std::size_t dataBytes, std::size_t offset, const char* what)
        : buffer(kGuardBytes + offset + dataBytes + kGuardBytes)
        , data(static_cast<char*>(buffer.get()) + kGuardBytes + offset)
        , bytes(dataBytes)
        , lead(kGuardBytes + offset)
        , name(what)
    {
    }
    template<typename T>
    T* as() const
    {
        return static_cast<T*>(data);
    }
    void arm(cudaStream_t stream) const
    {
        KIX_CUDA_CHECK(cudaMemsetAsync(buffer.get(), kGuardByte, buffer.bytes(), stream));
    }
    bool intact() const
    {
        std::vector<unsigned char> all(buffer.bytes());
        KIX_CUDA_CHECK(cudaMemcpy(all.data(), buffer.get(), all.size(), cudaMemcpyDeviceToHost));
        auto guard = [](unsigned char b) { return b == kGuardByte; };
        return std::all_of(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(lead), guard)
            && std::all_of(all.begin() + static_cast<std::ptrdiff_t>(lead + bytes), all.end(), guard);
    }
    DeviceBuffer buffer;
    void* data;
    std::size_t bytes;
    std::size_t lead;
    const char* name;
};

// Device copy of an M x C x H tensor in storage dtype, possibly one element past a 16-byte boundary.
struct Tensor : Guarded
{
    Tensor(std::int64_t elements, gn::DType dtype, bool misaligned, const char* what)
        : Guarded(static_cast<std::size_t>(elements) * gn::dtypeSize(dtype),
            misaligned ? static_cast<std::size_t>(gn::dtypeSize(dtype)) : 0, what)
    {
    }
};

std::vector<float> readStorage(const void* device, std::int64_t count, gn::DType dtype)
{
    std::vector<float> out(static_cast<std::size_t>(count));
    if (dtype == gn::DType::F32) {
        KIX_CUDA_CHECK(cudaMemcpy(out.data(), device, out.size() * 4, cudaMemcpyDeviceToHost));
        return out;
    }
    std::vector<std::uint16_t> raw(out.size());
    KIX_CUDA_CHECK(cudaMemcpy(raw.data(), device, raw.size() * 2, cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < raw.size(); ++i)
        out[i] = dtype == gn::DType::BF16 ? gn::bf16ToFloat(raw[i]) : gn::halfToFloat(raw[i]);
    return out;
}

std::vector<unsigned char> readBytes(const void* device, std::size_t bytes)
{
    std::vector<unsigned char> out(bytes);
    KIX_CUDA_CHECK(cudaMemcpy(out.data(), device, bytes, cudaMemcpyDeviceToHost));
    return out;
}

std::uint64_t fnv1a(std::uint64_t hash, const std::vector<unsigned char>& bytes)
{
    for (unsigned char b : bytes)
        hash = (hash ^ b) * 0x100000001b3ull;
    return hash;
}

template<typename Out>
double relativeError(const Out& out, const std::vector<double>& reference)
{
    gn::ref::ErrorAccumulator e;
    for (std::size_t i = 0; i < reference.size(); ++i)
        e.add(static_cast<double>(out[i]), reference[i]);
    return e.relative();
}

std::vector<double> hostInput(std::uint64_t seed, gn::Tensor tensor, std::int64_t count, gn::DType dtype)
{
    std::vector<double> v(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = gn::roundToDType(gn::initInput(seed, tensor, i), dtype);
    return v;
}

} // namespace

const char* dtypeText(gn::DType dtype)
{
    return dtype == gn::DType::F32 ? "fp32" : dtype == gn::DType::BF16 ? "bf16" : "fp16";
}

std::vector<VerifyCase> verificationCases(bool quick)
{
    std::vector<VerifyCase> cases = {
        { "tiny-warp-rows", shapeOf(3, 8, 16, 2), false }, // L 32: a warp per row, 4 rows per block, 12 rows
        { "odd-hidden", shapeOf(3, 6, 7, 3), false }, // L 21, H odd: scalar path
        { "hidden-1", shapeOf(2, 64, 1, 32), false }, // every lane its own channel
        { "hidden-3-cpg-64", shapeOf(2, 256, 3, 64), false },
        { "misaligned", shapeOf(2, 16, 64, 4), true }, // scalar path on aligned-looking H
        { "seed-rows-few", shapeOf(2, 64, 512, 4), false }, // L 2048, 32 rows (< SMs)
        // kix-persistent's own kernels at 64/128 threads per row, an odd batch (uneven lanes in the group
        // reduction), 12 groups
        { "persistent-odd-batch", shapeOf(37, 48, 256, 4), false },
        { "odd-hidden-long", shapeOf(2, 8, 1001, 4), false }, // L 4004, H odd
    };
    if (quick)
        return cases;
    const std::vector<VerifyCase> more = {
        { "hidden-33", shapeOf(4, 32, 33, 4), false },
        { "rows-1024-threads", shapeOf(2, 4, 4096, 2), false }, // L 8192
        { "persistent-512-threads", shapeOf(4, 16, 1024, 4), false }, // L 4096: fp32 512-thread persistent rows
        { "rows-16-per-thread", shapeOf(2, 4, 6000, 2), false }, // L 12000: fp32 16 elements per thread
        { "cpg-4096", shapeOf(2, 4096, 2, 4096), false }, // large channel table in shared memory
        { "cpg-8192-opt-in", shapeOf(2, 8192, 1, 8192), false }, // 66 KiB channel table: shared-memory opt-in
        // fp32 forward 1024 x 16 scalar; its backward (1024 x 16 scalar spilled) now runs on the reference kernels
        { "cpg-5632-h2-opt-in", shapeOf(2, 5632, 2, 5632), false },
        { "cpg-5888-h1-opt-in", shapeOf(2, 5888, 1, 5888), false }, // fp32 1024 x 8: table 48 KiB + scratch, opt-in
        { "cpg-12288-fallback", shapeOf(1, 12288, 1, 12288), false }, // table over 96 KiB: reference kernels
        { "row-40000-fallback", shapeOf(1, 2, 40000, 1), false }, // not resident: reference kernels
        { "row-70001-chunks", shapeOf(1, 1, 70001, 1), false }, // several chunks, H odd
        { "misaligned-long", shapeOf(2, 8, 1024, 4), true },
        { "seed-slice", shapeOf(8, 2048, 512, 4), false }, // the seed workload's rows, M 8
        // More rows than a persistent grid holds at 64 threads per row (132 SMs x 32 blocks): several rows per
        // block, the group index stepping by grid % G
        { "persistent-many-rows", shapeOf(48, 1200, 128, 4), false },
    };
    cases.insert(cases.end(), more.begin(), more.end());
    return cases;
}

double VerifyResult::worst() const
{
    return std::max({ errorY, errorMean, errorRstd, errorDx, errorDWeight, errorDBias });
}

std::string VerifyResult::summary() const
{
    char text[320];
    std::snprintf(text, sizeof text,
        "y %.2g mean %.2g rstd %.2g dx %.2g dweight %.2g dbias %.2g (tolerance %.2g, fp32 outputs %.2g), %s", errorY,
        errorMean, errorRstd, errorDx, errorDWeight, errorDBias, tolerance, fp32Tolerance,
        reproducible ? "reproducible" : "NOT bitwise reproducible");
    if (!guardsBroken.empty())
        return std::string(text) + ", WROTE OUTSIDE " + guardsBroken + " (guard bytes changed)";
    return text;
}

VerifyResult verifyCase(GroupNormImpl impl, gn::DType dtype, const VerifyCase& c, std::uint64_t seed)
{
    const GroupNormShape& s = c.shape;
    const std::int64_t n = s.elements(), rows = s.rows(), channels = s.channels;
    VerifyResult result;
    result.tolerance = gn::ref::tolerance(dtype);
    result.fp32Tolerance = gn::ref::tolerance(gn::DType::F32);
    char plan[200];
    result.plan = std::string("forward: ")
        + launchDescription(impl, dtype, s, GroupNormDirection::Forward, !c.misaligned, plan, sizeof plan);
    result.plan += std::string("; backward: ")
        + launchDescription(impl, dtype, s, GroupNormDirection::Backward, !c.misaligned, plan, sizeof plan);

    Stream stream;
    Tensor x(n, dtype, c.misaligned, "x"), dy(n, dtype, c.misaligned, "dy"), y(n, dtype, c.misaligned, "y"),
        dx(n, dtype, c.misaligned, "dx");
    const auto floats = [](std::int64_t count) { return static_cast<std::size_t>(count) * 4; };
    Guarded weight(floats(channels), 0, "weight"), bias(floats(channels), 0, "bias");
    Guarded dweight(floats(channels), 0, "dweight"), dbias(floats(channels), 0, "dbias");
    Guarded mean(floats(rows), 0, "mean"), rstd(floats(rows), 0, "rstd");
    Guarded forwardWork(groupNormWorkspaceBytes(impl, GroupNormDirection::Forward, dtype, s), 0, "forward workspace");
    Guarded backwardWork(
        groupNormWorkspaceBytes(impl, GroupNormDirection::Backward, dtype, s), 0, "backward workspace");
    const Guarded* guarded[]
        = { &x, &dy, &y, &dx, &weight, &bias, &dweight, &dbias, &mean, &rstd, &forwardWork, &backwardWork };
    for (const Guarded* g : guarded)
        g->arm(stream.get());
    KIX_CUDA_CHECK(fillInput(dtype, gn::Tensor::X, seed, x.data, n, stream.get()));
    KIX_CUDA_CHECK(fillInput(dtype, gn::Tensor::Dy, seed, dy.data, n, stream.get()));
    KIX_CUDA_CHECK(fillInput(gn::DType::F32, gn::Tensor::Weight, seed, weight.data, channels, stream.get()));
    KIX_CUDA_CHECK(fillInput(gn::DType::F32, gn::Tensor::Bias, seed, bias.data, channels, stream.get()));

    // NaN in every output (0xff bytes are NaN in fp32, bf16 and fp16): an element a kernel forgets shows.
    auto poison = [&](void* p, std::size_t bytes) { KIX_CUDA_CHECK(cudaMemsetAsync(p, 0xff, bytes, stream.get())); };
    poison(y.data, y.bytes);
    poison(mean.data, mean.bytes);
    poison(rstd.data, rstd.bytes);
    KIX_CUDA_CHECK(groupNormForward(impl, dtype, s, x.data, weight.as<float>(), bias.as<float>(), y.data,
        mean.as<float>(), rstd.as<float>(), forwardWork.data, forwardWork.bytes, stream.get()));
    auto backward = [&] {
        poison(dx.data, dx.bytes);
        poison(dweight.data, dweight.bytes);
        poison(dbias.data, dbias.bytes);
        KIX_CUDA_CHECK(
            groupNormBackward(impl, dtype, s, dy.data, x.data, weight.as<float>(), mean.as<float>(), rstd.as<float>(),
                dx.data, dweight.as<float>(), dbias.as<float>(), backwardWork.data, backwardWork.bytes, stream.get()));
        KIX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    };
    backward();
    const std::vector<unsigned char> firstDx = readBytes(dx.data, dx.bytes);
    const std::vector<unsigned char> firstDw = readBytes(dweight.data, dweight.bytes);
    const std::vector<unsigned char> firstDb = readBytes(dbias.data, dbias.bytes);
    std::uint64_t digest = 0xcbf29ce484222325ull;
    const Guarded* forwardOutputs[] = { &y, &mean, &rstd };
    for (const Guarded* g : forwardOutputs)
        digest = fnv1a(digest, readBytes(g->data, g->bytes));
    result.digest = fnv1a(fnv1a(fnv1a(digest, firstDx), firstDw), firstDb);
    const std::vector<float> outY = readStorage(y.data, n, dtype), outDx = readStorage(dx.data, n, dtype);
    const std::vector<float> outMean = readStorage(mean.data, rows, gn::DType::F32);
    const std::vector<float> outRstd = readStorage(rstd.data, rows, gn::DType::F32);
    const std::vector<float> outDw = readStorage(dweight.data, channels, gn::DType::F32);
    const std::vector<float> outDb = readStorage(dbias.data, channels, gn::DType::F32);
    backward();
    result.reproducible = readBytes(dx.data, dx.bytes) == firstDx && readBytes(dweight.data, dweight.bytes) == firstDw
        && readBytes(dbias.data, dbias.bytes) == firstDb;
    for (const Guarded* g : guarded)
        if (!g->intact())
            result.guardsBroken += std::string(result.guardsBroken.empty() ? "" : ", ") + g->name;

    const std::vector<double> hx = hostInput(seed, gn::Tensor::X, n, dtype),
                              hdy = hostInput(seed, gn::Tensor::Dy, n, dtype);
    const std::vector<double> hw = hostInput(seed, gn::Tensor::Weight, channels, gn::DType::F32);
    const std::vector<double> hb = hostInput(seed, gn::Tensor::Bias, channels, gn::DType::F32);
    std::vector<double> ry(hx.size()), rdx(hx.size()), rmean(static_cast<std::size_t>(rows)), rrstd(rmean.size());
    std::vector<double> rdw(hw.size()), rdb(hw.size());
    gn::ref::forward(s, hx.data(), hw.data(), hb.data(), ry.data(), rmean.data(), rrstd.data());
    gn::ref::backward(s, hx.data(), hdy.data(), hw.data(), rdx.data(), rdw.data(), rdb.data());
    result.errorY = relativeError(outY, ry);
    result.errorMean = relativeError(outMean, rmean);
    result.errorRstd = relativeError(outRstd, rrstd);
    result.errorDx = relativeError(outDx, rdx);
    result.errorDWeight = relativeError(outDw, rdw);
    result.errorDBias = relativeError(outDb, rdb);
    return result;
}

namespace {

// Evenly spaced indices in [0, count), first and last included (as engine/correctness.cpp picks rows).
std::vector<std::int64_t> spread(std::int64_t count, std::int64_t wanted)
{
    std::vector<std::int64_t> picked;
    for (std::int64_t k = 0; k < std::min(count, wanted); ++k)
        picked.push_back(count <= wanted ? k : k * (count - 1) / (wanted - 1));
    picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
    return picked;
}

} // namespace

VerifyResult checkBenchOutputs(GroupNormBench& bench)
{
    const BenchConfig& config = bench.config();
    const GroupNormShape& s = config.shape;
    const bool forward = config.pass != BenchPass::Backward;
    const bool backward = config.pass != BenchPass::Forward;
    const std::int64_t length = s.rowLength(), groups = s.groups(), cpg = s.channelsPerGroup;
    VerifyResult result;
    result.tolerance = gn::ref::tolerance(config.dtype);
    result.fp32Tolerance = gn::ref::tolerance(gn::DType::F32);
    result.reproducible = true;
    result.plan = bench.plan();
    bench.poisonOutputs();
    bench.run();

    std::vector<double> weight(static_cast<std::size_t>(s.channels)), bias(weight.size());
    for (std::size_t c = 0; c < weight.size(); ++c) {
        weight[c] = gn::initInput(config.seed, gn::Tensor::Weight, c);
        bias[c] = gn::initInput(config.seed, gn::Tensor::Bias, c);
    }
    std::vector<double> x(static_cast<std::size_t>(length)), dy(x.size()), out(x.size());
    std::vector<float> device(x.size());
    auto loadRow = [&](gn::Tensor tensor, std::int64_t row, std::vector<double>& into) {
        const auto first = static_cast<std::uint64_t>(row * length);
        for (std::size_t i = 0; i < into.size(); ++i)
            into[i] = gn::roundToDType(gn::initInput(config.seed, tensor, first + i), config.dtype);
    };
    gn::ref::ErrorAccumulator ey, emean, erstd, edx, edw, edb;
    auto compare = [&](gn::ref::ErrorAccumulator& e, BenchOutput which, std::int64_t offset, const double* reference,
                       std::int64_t count) {
        device.resize(static_cast<std::size_t>(count));
        bench.readOutput(which, offset, count, device.data());
        for (std::int64_t i = 0; i < count; ++i)
            e.add(device[static_cast<std::size_t>(i)], reference[i]);
    };
    std::vector<double> dweight(weight.size(), 0.0), dbias(weight.size(), 0.0);
    for (const std::int64_t row : spread(s.rows(), 16)) {
        const std::size_t first = static_cast<std::size_t>((row % groups) * cpg);
        loadRow(gn::Tensor::X, row, x);
        if (forward) {
            double mean = 0, rstd = 0;
            gn::ref::forwardRow(x.data(), &weight[first], &bias[first], s, out.data(), mean, rstd);
            compare(ey, BenchOutput::Y, row * length, out.data(), length);
            compare(emean, BenchOutput::Mean, row, &mean, 1);
            compare(erstd, BenchOutput::Rstd, row, &rstd, 1);
        }
        if (backward) {
            loadRow(gn::Tensor::Dy, row, dy);
            gn::ref::backwardRow(x.data(), dy.data(), &weight[first], s, out.data(), &dweight[first], &dbias[first]);
            compare(edx, BenchOutput::Dx, row * length, out.data(), length);
        }
    }
    if (backward) { // dweight and dbias of a group need every row of that group over the batch
        for (const std::int64_t g : spread(groups, 3)) {
            const std::size_t first = static_cast<std::size_t>(g * cpg);
            std::fill(dweight.begin() + g * cpg, dweight.begin() + (g + 1) * cpg, 0.0);
            std::fill(dbias.begin() + g * cpg, dbias.begin() + (g + 1) * cpg, 0.0);
            for (std::int64_t n = 0; n < s.batch; ++n) {
                loadRow(gn::Tensor::X, n * groups + g, x);
                loadRow(gn::Tensor::Dy, n * groups + g, dy);
                gn::ref::backwardRow(
                    x.data(), dy.data(), &weight[first], s, out.data(), &dweight[first], &dbias[first]);
            }
            compare(edw, BenchOutput::DWeight, g * cpg, &dweight[first], cpg);
            compare(edb, BenchOutput::DBias, g * cpg, &dbias[first], cpg);
        }
    }
    result.errorY = ey.relative();
    result.errorMean = emean.relative();
    result.errorRstd = erstd.relative();
    result.errorDx = edx.relative();
    result.errorDWeight = edw.relative();
    result.errorDBias = edb.relative();
    return result;
}

} // namespace kix::cuda
