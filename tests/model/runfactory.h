// SPDX-License-Identifier: Apache-2.0
// Runs built in memory for the explorer's model tests, and the ui fixtures loaded from tests/data/ui.
#pragma once

#include "model/read/documentparser.h"
#include "model/run.h"

#include <QStringList>

#include <memory>

namespace kixtest {

inline QString uiDataPath(const QString& name)
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/ui/") + name;
}

// A group_norm latency run with exact numbers (ns); p20/p80 are NaN when spread < 0.
inline std::shared_ptr<kix::Run> makeRun(const QString& provider, const QString& gpu, double channels, double median,
    double spread = 0.01, const QString& pass = QStringLiteral("backward"))
{
    auto run = std::make_shared<kix::Run>();
    run->kernel = QStringLiteral("group_norm");
    run->pass = pass;
    run->provider = provider;
    run->gpuProduct = gpu;
    run->gpuSlug = gpu.toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
    run->dtype = QStringLiteral("fp32");
    run->workload = { { QStringLiteral("batch"), QStringLiteral("128"), 128 },
        { QStringLiteral("channels"), QString::number(channels), channels } };
    run->workloadSlug = QStringLiteral("batch128-channels%1-fp32").arg(channels);
    run->externalId = QStringLiteral("group_norm/%1/%2/%3/%4/2026-01-01-00-00-00")
                          .arg(pass, provider, run->gpuSlug, run->workloadSlug);
    run->median = median;
    if (spread >= 0) {
        run->p20 = median * (1 - spread);
        run->p80 = median * (1 + spread);
    }
    run->protocolFamily = QStringLiteral("liger_kernel_bench");
    run->status = QStringLiteral("passed");
    run->source = QStringLiteral("liger-kernel-bench");
    run->finalize();
    return run;
}

// Loads fixtures from tests/data/ui; `errors` counts error diagnostics.
inline kix::RunList loadUiFixtures(const QStringList& names, int* errors = nullptr)
{
    kix::RunList runs;
    int n = 0;
    for (const QString& name : names) {
        const kix::ParseResult result = kix::parseFile(uiDataPath(name));
        runs += result.runs;
        for (const kix::Diagnostic& d : result.diagnostics)
            n += d.isError() ? 1 : 0;
    }
    if (errors)
        *errors = n;
    return runs;
}

inline kix::RunList allUiFixtures()
{
    return loadUiFixtures({ QStringLiteral("groupnorm-sweep.json"), QStringLiteral("samples.jsonl"),
        QStringLiteral("cross-gpu.json"), QStringLiteral("liger-mini.csv") });
}

} // namespace kixtest
