// SPDX-License-Identifier: Apache-2.0
// kix_cuda_check: the CUDA GroupNorm kernels without Qt, for machines where only the CUDA toolkit is
// installed (scripts/gpu-check.sh falls back to it). Subcommands:
//   info                       the device, as JSON
//   verify [--quick] [--cases NAME,...] [--seed N] [--dtypes fp32,bf16,fp16]
//                              every implementation against the float64 reference (exit 1 on failure)
//   bench  [options]           configurations checked against the float64 reference (sampled rows), then
//                              timed as the engine times them; one JSON line each
//                              (--impl, --pass, --dtype and --channels take comma-separated lists)
//   plan [--channels C,...]    every implementation's launch plan for the seed shapes (no device needed)
//   bandwidth                  device copy bandwidth after the memset flush (the kernels' default), after the
//                              read sweep, and back to back without a flush; one JSON line
// Without a device every subcommand but plan prints the CUDA error and exits with status 2.

#include "kernels/cuda/cudatiming.h"
#include "kernels/cuda/groupnorm_bench.h"
#include "kernels/cuda/groupnorm_verify.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace kix;
using namespace kix::cuda;

namespace {

std::string quoted(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (static_cast<unsigned char>(c) >= 0x20)
            out += c;
    }
    return out + "\"";
}

std::string number(double v)
{
    if (!std::isfinite(v))
        return "null";
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

std::string deviceJson(const DeviceSummary& d)
{
    return "{\"name\":" + quoted(d.name) + ",\"architecture\":" + quoted(d.architecture) + ",\"memory_bytes\":"
        + std::to_string(d.memoryBytes) + ",\"multiprocessors\":" + std::to_string(d.multiprocessors) + ",\"l2_bytes\":"
        + std::to_string(d.l2Bytes) + ",\"max_sm_clock_mhz\":" + std::to_string(d.maxSmClockKHz / 1000)
        + ",\"memory_clock_mhz\":" + std::to_string(d.memoryClockKHz / 1000)
        + ",\"memory_bus_bits\":" + std::to_string(d.memoryBusBits) + ",\"driver\":" + quoted(nvmlDriverVersion())
        + ",\"cuda_driver\":" + quoted(cudaVersionText(d.driverVersion)) + ",\"cuda_runtime\":"
        + quoted(cudaVersionText(d.runtimeVersion)) + ",\"pci_bus_id\":" + quoted(d.pciBusId) + "}";
}

std::string clockJson(const ClockSample& c)
{
    if (!c.valid)
        return "{\"valid\":false,\"note\":" + quoted(c.note) + "}";
    return "{\"valid\":true,\"sm_mhz\":" + std::to_string(c.smMHz) + ",\"memory_mhz\":" + std::to_string(c.memoryMHz)
        + ",\"max_sm_mhz\":" + std::to_string(c.maxSmMHz) + ",\"reasons\":" + std::to_string(c.reasons) + "}";
}

// --key value pairs and bare --flags.
std::map<std::string, std::string> parseOptions(int argc, char** argv, int first)
{
    std::map<std::string, std::string> options;
    for (int i = first; i < argc; ++i) {
        std::string key = argv[i];
        if (key.rfind("--", 0) != 0)
            continue;
        key = key.substr(2);
        if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0)
            options[key] = argv[++i];
        else
            options[key] = "1";
    }
    return options;
}

double nowNs()
{
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Quantile q of ascending `sorted` at q * (n - 1) with linear interpolation: the rule of the engine's
// quantile() (engine/samplestatistics.h) and do_bench. Kept here rather than linked: this tool must build with
// nvcc alone or the Qt-free standalone project, which have no engine/ or model/ (and the engine's statistics
// are being merged into model/statistics). The device check's summary compares both tools' medians, so a
// drift would show as kix bench and kix_cuda_check disagreeing on the same run.
double quantile(const std::vector<double>& sorted, double q)
{
    const double position = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(position);
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (sorted[above] - sorted[below]) * (position - static_cast<double>(below));
}

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> parts;
    std::size_t begin = 0;
    while (begin <= text.size()) {
        std::size_t comma = text.find(',', begin);
        if (comma == std::string::npos)
            comma = text.size();
        if (comma > begin)
            parts.push_back(text.substr(begin, comma - begin));
        begin = comma + 1;
    }
    return parts;
}

int commandInfo()
{
    const DeviceSummary d = queryDevice(0);
    std::printf("{\"device\":%s,\"clocks\":%s}\n", deviceJson(d).c_str(), clockJson(sampleClocks(d.pciBusId)).c_str());
    return 0;
}

int commandVerify(const std::map<std::string, std::string>& options)
{
    const bool quick = options.count("quick") > 0;
    std::uint64_t seed = std::random_device {}();
    if (options.count("seed"))
        seed = std::strtoull(options.at("seed").c_str(), nullptr, 10);
    std::printf("verify: seed %llu (fresh unless --seed), outputs poisoned with NaN before every run\n",
        static_cast<unsigned long long>(seed));
    std::vector<gn::DType> dtypes;
    std::string list = options.count("dtypes") ? options.at("dtypes") + "," : "fp32,bf16,fp16,";
    for (std::size_t comma; (comma = list.find(',')) != std::string::npos; list.erase(0, comma + 1)) {
        gn::DType d;
        if (parseDType(list.substr(0, comma), d))
            dtypes.push_back(d);
    }
    // --cases a,b: these cases of the full table (added to the quick table's with --quick).
    std::vector<VerifyCase> cases = verificationCases(quick);
    if (options.count("cases")) {
        const std::vector<std::string> wanted = splitList(options.at("cases"));
        if (!quick)
            cases.clear();
        for (const VerifyCase& c : verificationCases(false))
            if (std::find(wanted.begin(), wanted.end(), c.name) != wanted.end()
                && std::none_of(cases.begin(), cases.end(), [&](const VerifyCase& k) { return k.name == c.name; }))
                cases.push_back(c);
    }
    int failures = 0, total = 0;
    for (const VerifyCase& c : cases) {
        for (gn::DType dtype : dtypes) {
            for (GroupNormImpl impl : kAllImpls) {
                ++total;
                VerifyResult r;
                try { // a CUDA error in one case fails that case; the others and the summary still run
                    r = verifyCase(impl, dtype, c, seed + static_cast<std::uint64_t>(total));
                } catch (const std::exception& e) {
                    ++failures;
                    std::printf("FAIL %-22s %s %-13s CUDA error: %s\n", c.name.c_str(), dtypeText(dtype),
                        implName(impl), e.what());
                    std::fflush(stdout);
                    // A kernel fault leaves a sticky error that fails every later call: reset the device and
                    // rebuild the launch memo (issue 32: every later case failed too), or stop, naming this case.
                    if (cudaDeviceSynchronize() != cudaSuccess) {
                        const cudaError_t reset = resetDeviceAfterFault();
                        if (reset != cudaSuccess) {
                            std::printf("verify: stopping after the kernel fault in %s %s %s: the device did not "
                                        "recover (%s); %d of %d runs so far passed, the rest not run\n",
                                c.name.c_str(), dtypeText(dtype), implName(impl), errorText(reset).c_str(),
                                total - failures, total);
                            return 1;
                        }
                        std::printf("     a kernel fault: device reset and launch memo rebuilt, the next cases run on "
                                    "a fresh context\n");
                        std::fflush(stdout);
                    }
                    continue;
                }
                failures += r.passed() ? 0 : 1;
                std::printf("%-4s %-22s M%lld C%lld H%lld cpg%lld %s %-13s %s\n", r.passed() ? "ok" : "FAIL",
                    c.name.c_str(), static_cast<long long>(c.shape.batch), static_cast<long long>(c.shape.channels),
                    static_cast<long long>(c.shape.hidden), static_cast<long long>(c.shape.channelsPerGroup),
                    dtypeText(dtype), implName(impl), r.summary().c_str());
                if (impl != GroupNormImpl::Reference && dtype == gn::DType::F32)
                    std::printf("     plan: %s\n", r.plan.c_str());
                std::fflush(stdout);
            }
        }
    }
    std::printf("verify: %d of %d passed\n", total - failures, total);
    return failures == 0 ? 0 : 1;
}

// A comma-separated --impl list; "all" is every implementation.
std::vector<std::string> implList(const std::string& text)
{
    if (text != "all")
        return splitList(text);
    std::vector<std::string> names;
    for (GroupNormImpl impl : kAllImpls)
        names.push_back(implName(impl));
    return names;
}

// What every implementation would launch for the seed workload's shapes (M 128, H 512, cpg 4, the
// --channels list), forward and backward, fp32/bf16/fp16: host-only, so it runs without a device (the
// dry run of scripts/gpu-check.sh). Fails when an implementation has no plan.
int commandPlan(const std::map<std::string, std::string>& o)
{
    const std::string channels = o.count("channels") ? o.at("channels") : "2048";
    int failures = 0;
    for (const std::string& c : splitList(channels)) {
        GroupNormShape s;
        s.batch = 128;
        s.channels = std::atoll(c.c_str());
        s.hidden = 512;
        s.channelsPerGroup = 4;
        if (!shapeValid(s)) {
            std::fprintf(stderr, "plan: invalid shape for --channels %s\n", c.c_str());
            return 64;
        }
        for (gn::DType dtype : { gn::DType::F32, gn::DType::BF16, gn::DType::F16 })
            for (GroupNormImpl impl : kAllImpls)
                for (GroupNormDirection direction : { GroupNormDirection::Forward, GroupNormDirection::Backward }) {
                    char text[200];
                    const char* plan = launchDescription(impl, dtype, s, direction, true, text, sizeof text);
                    failures += plan[0] == '\0' ? 1 : 0;
                    std::printf("C=%-5s %s %-14s %-8s workspace %9zu B  %s\n", c.c_str(), dtypeText(dtype),
                        implName(impl), direction == GroupNormDirection::Forward ? "forward" : "backward",
                        groupNormWorkspaceBytes(impl, direction, dtype, s), plan);
                }
    }
    return failures == 0 ? 0 : 1;
}

// One configuration timed; one JSON line on stdout, a short line on stderr.
void benchOne(const BenchConfig& config, double eps, double warmupMs, double repMs)
{
    GroupNormBench bench(config);
    // Checked against the float64 reference before it is timed (sampled rows, as the engine checks): a wrong
    // implementation gets no timing line, so the summary's best candidate is one that passed.
    const VerifyResult check = checkBenchOutputs(bench);
    if (!check.passed())
        throw std::runtime_error("correctness check failed, not timed: " + check.summary());
    // do_bench's policy, as engine/timingharness.cpp implements it: estimate, warm up by time, repeat by time.
    double start = nowNs();
    for (int i = 0; i < 5; ++i) {
        bench.flushCaches();
        bench.timedRunNs();
    }
    const double estimate = std::max(1.0, (nowNs() - start) / 5);
    const int warmups = static_cast<int>(std::ceil(warmupMs * 1e6 / estimate));
    const int repetitions = static_cast<int>(std::clamp(std::ceil(repMs * 1e6 / estimate), 5.0, 100000.0));
    for (int i = 0; i < warmups; ++i)
        bench.run();
    // After the warm-up, as measuring begins: before it the GPU idled (allocation, input generation) and
    // clocked down, which says nothing about the clocks the samples were taken at.
    const ClockSample before = sampleClocks(bench.device().pciBusId);
    std::vector<double> samples;
    for (int i = 0; i < repetitions; ++i) {
        bench.flushCaches();
        samples.push_back(bench.timedRunNs());
    }
    const ClockSample after = sampleClocks(bench.device().pciBusId);
    std::sort(samples.begin(), samples.end());
    double mean = 0;
    for (double s : samples)
        mean += s / static_cast<double>(samples.size());
    const std::int64_t bytes = minimumBytes(config.pass, config.dtype, config.shape);
    const double median = quantile(samples, 0.5);
    std::printf(
        "{\"impl\":%s,\"pass\":%s,\"dtype\":%s,\"batch\":%lld,\"channels\":%lld,\"hidden\":%lld,"
        "\"channels_per_group\":%lld,\"eps\":%s,\"seed\":%llu,\"graph\":%s,\"flush\":%s,\"launches_per_sample\":%"
        "d,\"flush_description\":%s,\"bytes_per_thread\":%"
        "d,\"warmup_"
        "ms\":%s,\"rep_ms\":%s,"
        "\"warmup_repetitions\":%d,\"samples\":%zu,\"median_ns\":%s,\"p20_ns\":%s,\"p80_ns\":%s,"
        "\"min_ns\":%s,\"max_ns\":%s,\"mean_ns\":%s,\"minimum_bytes\":%lld,\"gbps\":%s,\"plan\":%s,"
        "\"device\":%s,\"clock_before\":%s,\"clock_after\":%s,\"throttle_warning\":%s,"
        "\"correctness\":{\"passed\":true,\"max_relative_error\":%s,\"tolerance\":%s}}\n",
        quoted(implName(config.impl)).c_str(), quoted(benchPassName(config.pass)).c_str(),
        quoted(dtypeText(config.dtype)).c_str(), static_cast<long long>(config.shape.batch),
        static_cast<long long>(config.shape.channels), static_cast<long long>(config.shape.hidden),
        static_cast<long long>(config.shape.channelsPerGroup), number(eps).c_str(),
        static_cast<unsigned long long>(config.seed), config.graph ? "true" : "false",
        quoted(flushModeName(config.flush)).c_str(), config.launches, quoted(bench.flushDescription()).c_str(),
        fusedBytesPerThread(), number(warmupMs).c_str(), number(repMs).c_str(), warmups, samples.size(),
        number(median).c_str(), number(quantile(samples, 0.2)).c_str(), number(quantile(samples, 0.8)).c_str(),
        number(samples.front()).c_str(), number(samples.back()).c_str(), number(mean).c_str(),
        static_cast<long long>(bytes), number(static_cast<double>(bytes) / median).c_str(),
        quoted(bench.plan()).c_str(), deviceJson(bench.device()).c_str(), clockJson(before).c_str(),
        clockJson(after).c_str(), quoted(throttleWarning(before, after)).c_str(), number(check.worst()).c_str(),
        number(check.tolerance).c_str());
    std::fflush(stdout);
    std::fprintf(stderr, "%-14s %-8s %s C=%-5lld%s%s median %.4f ms, %.0f GB/s\n", implName(config.impl),
        benchPassName(config.pass), dtypeText(config.dtype), static_cast<long long>(config.shape.channels),
        config.graph                      ? " graph"
            : fusedBytesPerThread() == 64 ? " 64B/thread"
                                          : "",
        config.flush == FlushMode::Memset          ? ""
            : config.flush == FlushMode::ReadSweep ? " read-sweep"
                                                   : (" back-to-back x" + std::to_string(config.launches)).c_str(),
        median / 1e6, static_cast<double>(bytes) / median);
}

// Every combination of the comma-separated --flush, --pass, --dtype, --channels and --impl lists, in one
// process.
int commandBench(const std::map<std::string, std::string>& o)
{
    auto get = [&](const char* key, const char* fallback) { return o.count(key) ? o.at(key) : std::string(fallback); };
    BenchConfig config;
    config.shape.batch = std::atoll(get("batch", "128").c_str());
    config.shape.hidden = std::atoll(get("hidden", "512").c_str());
    config.shape.channelsPerGroup = std::atoll(get("channels-per-group", "4").c_str());
    const double eps = std::strtod(get("eps", "1e-6").c_str(), nullptr); // echoed as given: workload digests
    config.shape.eps = static_cast<float>(eps);
    config.graph = o.count("graph") > 0;
    const int backToBack = std::atoi(get("launches", "20").c_str());
    if (!setFusedBytesPerThread(std::atoi(get("bytes-per-thread", "32").c_str()))) {
        std::fprintf(stderr, "bench: --bytes-per-thread must be 32 or 64\n");
        return 64;
    }
    const double warmupMs = std::atof(get("warmup-ms", "25").c_str());
    const double repMs = std::atof(get("rep-ms", "100").c_str());
    int failures = 0;
    for (const std::string& flush : splitList(get("flush", "memset")))
        for (const std::string& pass : splitList(get("pass", "forward")))
            for (const std::string& dtype : splitList(get("dtype", "fp32")))
                for (const std::string& channels : splitList(get("channels", "2048")))
                    for (const std::string& impl : implList(get("impl", "kix-fused"))) {
                        if (!implFromName(impl.c_str(), config.impl) || !parseBenchPass(pass, config.pass)
                            || !parseDType(dtype, config.dtype) || !parseFlushMode(flush, config.flush)) {
                            std::fprintf(stderr, "bench: unknown --impl, --pass, --dtype or --flush value\n");
                            return 64;
                        }
                        // Back to back (no flush): N repetitions per event pair (--launches, 20).
                        config.launches = config.flush == FlushMode::None ? backToBack : 1;
                        config.shape.channels = std::atoll(channels.c_str());
                        try {
                            benchOne(config, eps, warmupMs, repMs);
                        } catch (const std::exception& e) { // one failing configuration is reported and skipped
                            std::fprintf(stderr, "bench %s %s %s C=%s failed: %s\n", impl.c_str(), pass.c_str(),
                                dtype.c_str(), channels.c_str(), e.what());
                            ++failures;
                        }
                    }
    return failures == 0 ? 0 : 1;
}

// The copy bandwidth after the kernels' flush (do_bench's memset: the reference their GB/s are compared
// with), after the read sweep, and back to back without a flush (the three policies of kix_cuda_check bench).
int commandBandwidth()
{
    const DeviceSummary d = queryDevice(0);
    const double gbps = measureCopyBandwidthGBs(d, 0, 10, FlushMode::Memset);
    const double read = measureCopyBandwidthGBs(d, 0, 10, FlushMode::ReadSweep);
    const double none = measureCopyBandwidthGBs(d, 0, 10, FlushMode::None);
    std::printf("{\"copy_bandwidth_gbps\":%s,\"flush\":\"memset\",\"copy_bandwidth_read_sweep_gbps\":%s,"
                "\"copy_bandwidth_back_to_back_gbps\":%s,\"device\":%s}\n",
        number(gbps).c_str(), number(read).c_str(), number(none).c_str(), deviceJson(d).c_str());
    return 0;
}

} // namespace

// Argument errors are found before the device is looked for, so that a dry run without a GPU (exit status
// 2) proves that the command lines the device run will use are accepted (64 otherwise).
bool validArguments(const std::string& command, const std::map<std::string, std::string>& o, std::string& error)
{
    auto get = [&](const char* key, const char* fallback) { return o.count(key) ? o.at(key) : std::string(fallback); };
    auto each = [&](const char* key, const char* fallback, auto&& valid) {
        for (const std::string& item :
            key == std::string("impl") ? implList(get(key, fallback)) : splitList(get(key, fallback)))
            if (!valid(item)) {
                error = std::string("--") + key + ": unknown value '" + item + "'";
                return false;
            }
        return true;
    };
    gn::DType dtype;
    if (command == "verify") {
        const std::vector<VerifyCase> all = verificationCases(false);
        return each("dtypes", "fp32", [&](const std::string& d) { return parseDType(d, dtype); })
            && each("cases", "seed-slice", [&](const std::string& name) {
                   return std::any_of(all.begin(), all.end(), [&](const VerifyCase& c) { return c.name == name; });
               });
    }
    if (command != "bench")
        return true;
    GroupNormImpl impl;
    BenchPass pass;
    FlushMode flush;
    const int bytes = std::atoi(get("bytes-per-thread", "32").c_str());
    if (bytes != 32 && bytes != 64) {
        error = "--bytes-per-thread must be 32 or 64";
        return false;
    }
    return each("impl", "kix-fused", [&](const std::string& n) { return implFromName(n.c_str(), impl); })
        && each("pass", "forward", [&](const std::string& p) { return parseBenchPass(p, pass); })
        && each("dtype", "fp32", [&](const std::string& d) { return parseDType(d, dtype); })
        && each("flush", "memset", [&](const std::string& f) { return parseFlushMode(f, flush); })
        && each("launches", "20", [](const std::string& n) { return std::atoi(n.c_str()) >= 1; })
        && each("channels", "2048", [](const std::string& c) { return std::atoll(c.c_str()) > 0; });
}

int main(int argc, char** argv)
{
    const std::string command = argc > 1 ? argv[1] : "";
    if (command == "plan")
        return commandPlan(parseOptions(argc, argv, 2));
    if (command != "info" && command != "verify" && command != "bench" && command != "bandwidth") {
        std::fprintf(stderr,
            "usage: kix_cuda_check info | bandwidth |\n"
            "  verify [--quick] [--cases NAME,...] [--seed N] [--dtypes fp32,bf16,fp16] |\n"
            "  plan [--channels C,...] (no device needed) |\n"
            "  bench [--impl kix-fused,kix-persistent,kix-reference|all] [--pass forward,backward,full]\n"
            "        [--dtype fp32,bf16,fp16] [--batch M] [--channels C,...] [--hidden H]\n"
            "        [--channels-per-group G] [--eps E] [--graph] [--bytes-per-thread 32|64]\n"
            "        [--flush memset|read|none] [--launches N (with --flush none; 20)]\n"
            "        [--warmup-ms 25] [--rep-ms 100]\n");
        return 64;
    }
    std::string error;
    if (!validArguments(command, parseOptions(argc, argv, 2), error)) {
        std::fprintf(stderr, "kix_cuda_check %s: %s\n", command.c_str(), error.c_str());
        return 64;
    }
    if (deviceCount(&error) == 0) {
        std::fprintf(stderr, "kix_cuda_check: no CUDA device: %s\n", error.c_str());
        return 2;
    }
    try {
        const auto options = parseOptions(argc, argv, 2);
        if (command == "info")
            return commandInfo();
        if (command == "verify")
            return commandVerify(options);
        if (command == "bench")
            return commandBench(options);
        return commandBandwidth();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kix_cuda_check %s: %s\n", command.c_str(), e.what());
        return 1;
    }
}
