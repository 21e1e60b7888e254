// SPDX-License-Identifier: Apache-2.0
// Load benchmark: generates kernelindex corpora and times kix's loader on them (see scripts/bench-load.sh).
//   bench_load generate DIR COUNT     COUNT run files under DIR (100 per sub-folder) and DIR.jsonl with the same runs
//   bench_load generate-jsonl FILE COUNT   only the .jsonl: COUNT runs, one a line (the 1M-run bundle)
//   bench_load load PATH...           loads, prints "wall_ms runs rss_mb diagnostics cpu_ms": wall and CPU time
//                                     (user + system, all threads) of loadPaths(), peak RSS of this process
#include "app/processpolicy.h"
#include "model/read/runloader.h"

#include "kix/config.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <cstdlib>

#include <sys/resource.h>

namespace {

nlohmann::json makeDocument(const nlohmann::json& seed, int i)
{
    static const char* providers[] = { "liger", "huggingface", "torch", "kix-fused" };
    static const char* passes[] = { "forward", "backward", "full" };
    static const char* gpus[] = { "nvidia-b200", "nvidia-h100-80gb-hbm3", "nvidia-a100-sxm4-80gb" };
    nlohmann::json d = seed;
    const int channels = 32 << (i % 7);
    const std::string provider = providers[(i / 7) % 4];
    const std::string pass = passes[(i / 28) % 3];
    const std::string gpu = gpus[(i / 84) % 3];
    const std::string stamp = "2026-02-28-00-" + std::to_string(10 + (i / 252) % 50) + "-" + std::to_string(i % 60);
    auto& spec = d["run"]["spec"];
    spec["sourceNative"]["externalId"] = "group_norm/" + pass + "/" + provider + "/" + gpu + "/batch128-channels"
        + std::to_string(channels) + "-channels_per_group4-hidden512-fp32/" + stamp + "-" + std::to_string(i);
    const double median = 50000.0 + channels * 600.0 + (i % 97) * 13.0;
    spec["timing"]["latencyNs"]["median"] = median;
    spec["measurements"][0]["value"] = median - 120;
    spec["measurements"][1]["value"] = median + 250;
    d["run"]["metadata"]["title"] = "GroupNorm · " + provider + " · " + pass;
    return d;
}

double cpuMs()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3
        + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

long peakRssKb()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

} // namespace

int main(int argc, char** argv)
{
    kix::applyProcessPolicy();
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    const QStringList args = app.arguments().mid(1);
    if (args.size() == 3 && args[0] == QLatin1String("generate")) {
        QFile fallback(
            QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
        if (!fallback.open(QIODevice::ReadOnly))
            return 1;
        const auto seed = nlohmann::json::parse(fallback.readAll().toStdString());
        const QString dir = args[1];
        const int count = args[2].toInt();
        QFile lines(dir + QStringLiteral(".jsonl"));
        if (!lines.open(QIODevice::WriteOnly))
            return 1;
        for (int i = 0; i < count; ++i) {
            const nlohmann::json d = makeDocument(seed, i);
            const QString sub = QStringLiteral("%1/%2").arg(dir).arg(i / 100, 4, 10, QLatin1Char('0'));
            if (i % 100 == 0)
                QDir().mkpath(sub);
            QFile f(QStringLiteral("%1/run-%2.json").arg(sub).arg(i, 6, 10, QLatin1Char('0')));
            if (!f.open(QIODevice::WriteOnly))
                return 1;
            f.write(QByteArray::fromStdString(d.dump(2)));
            lines.write(QByteArray::fromStdString(d.dump()) + '\n');
        }
        return 0;
    }
    if (args.size() == 3 && args[0] == QLatin1String("generate-jsonl")) {
        QFile fallback(
            QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
        if (!fallback.open(QIODevice::ReadOnly))
            return 1;
        const auto seed = nlohmann::json::parse(fallback.readAll().toStdString());
        QFile lines(args[1]);
        if (!lines.open(QIODevice::WriteOnly))
            return 1;
        const int count = args[2].toInt();
        for (int i = 0; i < count; ++i)
            lines.write(QByteArray::fromStdString(makeDocument(seed, i).dump()) + '\n');
        return 0;
    }
    if (args.size() >= 2 && args[0] == QLatin1String("load")) {
        QElapsedTimer timer;
        const double cpuBefore = cpuMs();
        timer.start();
        const kix::LoadResult r = kix::loadPaths(args.mid(1));
        const double ms = timer.nsecsElapsed() / 1e6;
        const double cpu = cpuMs() - cpuBefore;
        out << QString::number(ms, 'f', 1) << " " << r.runs.size() << " "
            << QString::number(peakRssKb() / 1024.0, 'f', 1) << " " << r.diagnostics.size() << " "
            << QString::number(cpu, 'f', 1) << "\n";
        if (qEnvironmentVariableIsSet("KIX_BENCH_DIAGNOSTICS")) {
            QTextStream err(stderr);
            for (const kix::Diagnostic& d : r.diagnostics)
                err << d.toString() << "\n";
        }
        out.flush();
        std::_Exit(0); // the runs are not freed one by one: the benchmark measures loading
        return 0;
    }
    out << "usage: bench_load generate DIR COUNT | bench_load load PATH...\n";
    return 2;
}
