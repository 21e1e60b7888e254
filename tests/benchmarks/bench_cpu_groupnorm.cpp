// SPDX-License-Identifier: Apache-2.0
// CPU GroupNorm forward and backward against the memcpy bandwidth measured in the same process.
// Target: both passes reach >= 60% of the copy bandwidth on M 16, C 2048, H 512, fp32.
//
//   bench_cpu_groupnorm [--shape M,C,H] [--channels-per-group N] [--rounds N] [--rep-ms MS]
//
// Each round times forward and backward with the engine's harness, each right after its own copy-bandwidth
// measurement; the figures printed are medians over the rounds (a shared machine is noisy). Exit code 1
// when a pass's median ratio stays below the target.

#include "app/processpolicy.h"
#include "engine/backendregistry.h"
#include "engine/benchmarksession.h"
#include "engine/cpubackend.h"

#include <QCoreApplication>
#include <QTextStream>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n == 0 ? 0 : (n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]));
}

} // namespace

int main(int argc, char** argv)
{
    kix::applyProcessPolicy();
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    kix::BenchmarkSpec base;
    base.batch = 16;
    base.channels = 2048;
    base.hidden = 512;
    base.channelsPerGroup = 4;
    base.device = QStringLiteral("cpu");
    base.timing.repMs = 500;
    int rounds = 5;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        const QString& key = args[i];
        const QString& value = args[i + 1];
        if (key == QStringLiteral("--shape")) {
            const QStringList dims = value.split(QLatin1Char(','));
            if (dims.size() == 3) {
                base.batch = dims[0].toLongLong();
                base.channels = dims[1].toLongLong();
                base.hidden = dims[2].toLongLong();
            }
        } else if (key == QStringLiteral("--channels-per-group")) {
            base.channelsPerGroup = value.toLongLong();
        } else if (key == QStringLiteral("--rounds")) {
            rounds = std::max(1, value.toInt());
        } else if (key == QStringLiteral("--rep-ms")) {
            base.timing.repMs = value.toDouble();
        }
    }

    kix::BackendRegistry registry;
    kix::Backend* backend = registry.backend(QStringLiteral("cpu"));
    const kix::DeviceInfo device = backend->devices().front();
    out << "device: " << device.name << ", " << device.computeUnits << " threads, last-level cache "
        << device.cacheBytes / (1 << 20) << " MiB\n";
    out << "workload: " << base.workloadSlug() << "\n";
    out.flush();

    // Each pass of each round gets a fresh session, so the copy bandwidth it is compared with is measured
    // just before it: on a shared machine the load changes from one second to the next.
    const kix::Pass passes[] = { kix::Pass::Forward, kix::Pass::Backward };
    std::vector<double> copy[2];
    std::vector<double> bandwidth[2];
    std::vector<double> fraction[2];
    std::vector<double> latency[2];
    for (int round = 0; round < rounds; ++round) {
        for (int p = 0; p < 2; ++p) {
            kix::BenchmarkSession session(registry);
            kix::BenchmarkSpec spec = base;
            spec.pass = passes[p];
            const kix::BenchmarkResult r = session.run(spec);
            if (r.status != kix::BenchmarkResult::Status::Passed) {
                out << kix::passName(spec.pass) << ": " << kix::statusName(r.status) << ": " << r.message << "\n";
                return 1;
            }
            copy[p].push_back(r.copyBandwidthGBs);
            bandwidth[p].push_back(r.bandwidthGBs);
            fraction[p].push_back(r.bandwidthFraction);
            latency[p].push_back(r.statistics.median);
            out << QStringLiteral("round %1 %2: memcpy %3 GB/s, median %4 us, %5 GB/s (%6%), %7 samples, error %8\n")
                       .arg(round + 1)
                       .arg(kix::passName(spec.pass), -8)
                       .arg(r.copyBandwidthGBs, 0, 'f', 2)
                       .arg(r.statistics.median / 1e3, 0, 'f', 1)
                       .arg(r.bandwidthGBs, 0, 'f', 2)
                       .arg(100 * r.bandwidthFraction, 0, 'f', 1)
                       .arg(r.statistics.count)
                       .arg(r.correctness.maxRelativeError, 0, 'e', 2);
            out.flush();
        }
    }

    out << QStringLiteral("\nmedians over %1 rounds:\n").arg(rounds);
    bool met = true;
    for (int p = 0; p < 2; ++p) {
        const double ratio = median(fraction[p]);
        met = met && ratio >= 0.6;
        out << QStringLiteral("  %1 %2 us  %3 GB/s  memcpy %4 GB/s  %5% of memcpy (best round %6%)\n")
                   .arg(kix::passName(passes[p]), -8)
                   .arg(median(latency[p]) / 1e3, 8, 'f', 1)
                   .arg(median(bandwidth[p]), 6, 'f', 2)
                   .arg(median(copy[p]), 6, 'f', 2)
                   .arg(100 * ratio, 5, 'f', 1)
                   .arg(100 * *std::max_element(fraction[p].begin(), fraction[p].end()), 0, 'f', 1);
    }
    out << (met ? "target (>= 60% of memcpy) met\n" : "target (>= 60% of memcpy) NOT met\n");
    return met ? 0 : 1;
}
