// SPDX-License-Identifier: Apache-2.0
// History benchmark: builds the history (series, change detection, ranking) of synthetic runs and prints the median
// of 5 timings, beside a baseline measured in the same run: each run's series key, then a sort by key and time.
//   bench_history [RUNS] [POINTS_PER_SERIES]     default 100000 runs in series of 10 points
#include "app/processpolicy.h"
#include "model/history/history.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <random>

int main(int argc, char** argv)
{
    kix::applyProcessPolicy();
    const int runs = argc > 1 ? std::atoi(argv[1]) : 100000;
    const int perSeries = argc > 2 ? std::max(1, std::atoi(argv[2])) : 10;
    std::mt19937 rng(1);
    std::normal_distribution<double> noise(0, 0.01);
    kix::RunList list;
    list.reserve(runs);
    for (int i = 0; i < runs; ++i) {
        const int series = i / perSeries, point = i % perSeries;
        auto run = std::make_shared<kix::Run>();
        run->kernel = QStringLiteral("group_norm");
        run->pass = QStringLiteral("backward");
        run->provider = QStringLiteral("p%1").arg(series % 7);
        run->gpuSlug = QStringLiteral("nvidia-b200");
        run->workloadSlug = QStringLiteral("batch128-channels%1-fp32").arg(series);
        run->externalId = run->workloadSlug + QStringLiteral("/%1").arg(point);
        run->observedAt = QDateTime(QDate(2025, 1, 1), QTime(0, 0), Qt::UTC).addDays(point);
        const double level = (point >= perSeries / 2 && series % 10 == 0) ? 1.2e6 : 1e6; // a step in 1 series of 10
        run->median = level * (1 + noise(rng));
        run->p20 = run->median * 0.99;
        run->p80 = run->median * 1.01;
        run->labels = { { QStringLiteral("version"), QStringLiteral("0.%1").arg(point) } };
        run->finalize();
        list << run;
    }
    std::shuffle(list.begin(), list.end(), rng);
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    std::vector<double> history, baseline;
    int changes = 0;
    for (int rep = 0; rep < 5; ++rep) {
        QElapsedTimer t;
        t.start();
        // The least work any grouping needs: each run's series key once, then a sort by key and time.
        std::vector<std::pair<QString, const kix::Run*>> keyed;
        keyed.reserve(list.size());
        for (const kix::RunPtr& run : std::as_const(list))
            keyed.emplace_back(kix::SeriesKey::of(*run).id(), run.get());
        std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : a.second->observedAt < b.second->observedAt;
        });
        baseline.push_back(double(t.nsecsElapsed()) / 1e6);
        t.restart();
        const kix::History h = kix::buildHistory(list);
        history.push_back(double(t.nsecsElapsed()) / 1e6);
        changes = int(h.changes.size());
    }
    std::printf("%d runs, %d per series: buildHistory %.1f ms (median of 5), key-and-sort baseline %.1f ms (%.2fx); "
                "%d changes\n",
        runs, perSeries, median(history), median(baseline), median(history) / median(baseline), changes);
    return 0;
}
