// SPDX-License-Identifier: Apache-2.0
// The timing loop on a fake benchmark with a fake clock: repetition counts from the budgets, a flush
// before every timed repetition, every sample kept, the noise-based stop, the caps and cancel. Nothing here
// depends on how fast the machine is.

#include "engine/backend.h"
#include "engine/timingharness.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <cmath>

using namespace kix;

namespace {

// Each call advances a fake clock: a flush by flushNs, a repetition by the next of `durations` (cycled).
class FakeBenchmark : public PreparedBenchmark
{
public:
    double clock = 0; // ns
    double flushNs = 0;
    std::vector<double> durations { 1000 };
    std::size_t next = 0;
    int runs = 0;
    int timedRuns = 0;
    int flushes = 0;
    bool flushedSinceLastTimed = false;
    bool timedWithoutFlush = false;
    std::atomic<bool>* cancelAfter = nullptr;
    int cancelAtTimedRun = -1;

    double advance()
    {
        const double d = durations[next++ % durations.size()];
        clock += d;
        return d;
    }
    void run() override
    {
        ++runs;
        advance();
    }
    double timedRun() override
    {
        ++timedRuns;
        if (!flushedSinceLastTimed)
            timedWithoutFlush = true;
        flushedSinceLastTimed = false;
        if (cancelAfter && timedRuns == cancelAtTimedRun)
            *cancelAfter = true;
        return advance();
    }
    void flushCaches() override
    {
        ++flushes;
        flushedSinceLastTimed = true;
        clock += flushNs;
    }
    void readOutput(Output, qint64, qint64, float*) override { }
};

TimingHooks fakeClock(FakeBenchmark& b)
{
    TimingHooks hooks;
    hooks.nowNs = [&b] { return b.clock; };
    return hooks;
}

} // namespace

class TestTimingHarness : public QObject
{
    Q_OBJECT

private slots:
    void countsFollowTheBudgets();
    void flushIsCountedInTheEstimateLikeDoBench();
    void minimumAndMaximumSamples();
    void noiseStopEndsWhenQuiet();
    void noiseStopHitsTheTimeCap();
    void cancelStopsBetweenRepetitions();
    void progressReachesOne();
};

void TestTimingHarness::countsFollowTheBudgets()
{
    FakeBenchmark b;
    b.durations = { 100'000 }; // 0.1 ms
    TimingSettings t;
    t.warmupMs = 1; // 10 repetitions
    t.repMs = 5; // 50 repetitions
    const TimingRun r = timeRepetitions(b, t, fakeClock(b));
    QCOMPARE(r.estimateNs, 100'000.0);
    QCOMPARE(r.warmupRepetitions, 10);
    QCOMPARE(int(r.samplesNs.size()), 50);
    QCOMPARE(r.stop, TimingRun::Stop::Budget);
    QCOMPARE(b.runs, 10); // warm-up runs are untimed and unflushed
    QCOMPARE(b.timedRuns, kEstimateRepetitions + 50);
    QCOMPARE(b.flushes, kEstimateRepetitions + 50);
    QVERIFY(!b.timedWithoutFlush);
}

void TestTimingHarness::flushIsCountedInTheEstimateLikeDoBench()
{
    FakeBenchmark b;
    b.durations = { 100'000 };
    b.flushNs = 100'000; // as long as the kernel: half as many repetitions fit the budget
    TimingSettings t;
    t.warmupMs = 0;
    t.repMs = 5;
    const TimingRun r = timeRepetitions(b, t, fakeClock(b));
    QCOMPARE(r.estimateNs, 200'000.0);
    QCOMPARE(r.warmupRepetitions, 0);
    QCOMPARE(int(r.samplesNs.size()), 25);
    for (const double s : r.samplesNs)
        QCOMPARE(s, 100'000.0); // the samples themselves exclude the flush
}

void TestTimingHarness::minimumAndMaximumSamples()
{
    FakeBenchmark slow;
    slow.durations = { 1e9 }; // 1 s per repetition, far above the budget
    TimingSettings t;
    t.warmupMs = 0;
    t.repMs = 1;
    t.minSamples = 3;
    QCOMPARE(int(timeRepetitions(slow, t, fakeClock(slow)).samplesNs.size()), 3);

    FakeBenchmark fast;
    fast.durations = { 10 }; // 10 ns
    t.repMs = 100;
    t.maxSamples = 40;
    const TimingRun r = timeRepetitions(fast, t, fakeClock(fast));
    QCOMPARE(int(r.samplesNs.size()), 40);
    QCOMPARE(r.stop, TimingRun::Stop::SampleCap);
}

void TestTimingHarness::noiseStopEndsWhenQuiet()
{
    FakeBenchmark b;
    b.durations = { 1000, 1010, 990, 1005, 995 }; // relative standard error well under 0.5% after a few
    TimingSettings t;
    t.warmupMs = 0;
    t.repMs = 0.005; // 5 repetitions
    t.noiseStop = true;
    const TimingRun r = timeRepetitions(b, t, fakeClock(b));
    QCOMPARE(r.stop, TimingRun::Stop::Noise);
    QCOMPARE(int(r.samplesNs.size()), 5);
    QVERIFY(r.relativeStandardError <= 0.005);
}

void TestTimingHarness::noiseStopHitsTheTimeCap()
{
    FakeBenchmark b;
    b.durations = { 1000, 3000 }; // stddev/mean ~ 0.5: needs ~10^4 samples for 0.5%
    TimingSettings t;
    t.warmupMs = 0;
    t.repMs = 0.01;
    t.noiseStop = true;
    t.maxMs = 0.2; // 200 us of measuring: about 100 repetitions
    const TimingRun r = timeRepetitions(b, t, fakeClock(b));
    QCOMPARE(r.stop, TimingRun::Stop::TimeCap);
    QVERIFY(r.samplesNs.size() >= 90 && r.samplesNs.size() <= 110);
    QVERIFY(r.relativeStandardError > 0.005);
    for (std::size_t i = 1; i < r.samplesNs.size(); ++i) // every sample kept, in order: they alternate
        QCOMPARE(r.samplesNs[i] + r.samplesNs[i - 1], 4000.0);
}

void TestTimingHarness::cancelStopsBetweenRepetitions()
{
    std::atomic<bool> cancel { false };
    FakeBenchmark b;
    b.cancelAfter = &cancel;
    b.cancelAtTimedRun = kEstimateRepetitions + 3;
    TimingSettings t;
    t.warmupMs = 0;
    t.repMs = 1000;
    TimingHooks hooks = fakeClock(b);
    hooks.cancel = &cancel;
    const TimingRun r = timeRepetitions(b, t, hooks);
    QCOMPARE(r.stop, TimingRun::Stop::Cancelled);
    QCOMPARE(int(r.samplesNs.size()), 3);

    cancel = true; // already cancelled: nothing runs
    FakeBenchmark idle;
    hooks = fakeClock(idle);
    hooks.cancel = &cancel;
    QCOMPARE(timeRepetitions(idle, t, hooks).stop, TimingRun::Stop::Cancelled);
    QCOMPARE(idle.timedRuns, 0);
}

void TestTimingHarness::progressReachesOne()
{
    FakeBenchmark b;
    TimingSettings t;
    t.warmupMs = 0.01;
    t.repMs = 0.02;
    TimingHooks hooks = fakeClock(b);
    std::vector<double> seen;
    hooks.progress = [&](double f) { seen.push_back(f); };
    timeRepetitions(b, t, hooks);
    QVERIFY(!seen.empty());
    for (std::size_t i = 1; i < seen.size(); ++i)
        QVERIFY(seen[i] >= seen[i - 1]);
    QCOMPARE(seen.back(), 1.0);
}

KIX_TEST_GUILESS_MAIN(TestTimingHarness)
#include "tst_timingharness.moc"
