// SPDX-License-Identifier: Apache-2.0
#include "model/history/changedetection.h"

#include "model/statistics.h"

#include <algorithm>
#include <cmath>

namespace kix {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kP20P80Span = 1.6832; // a normal's p20-p80 spans 1.6832 standard deviations

// z such that P(Z > z) = p, for 0 < p < 0.5 (bisection on erfc: exact enough and simple).
double upperNormalQuantile(double p)
{
    double lo = 0, hi = 40;
    for (int i = 0; i < 64; ++i) {
        const double mid = (lo + hi) / 2;
        if (0.5 * std::erfc(mid / std::sqrt(2.0)) > p)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

double medianOf(std::vector<double> v)
{
    if (v.empty())
        return std::numeric_limits<double>::quiet_NaN();
    std::sort(v.begin(), v.end());
    return sortedQuantile(v, 0.5);
}

// A point's p20-p80, or the same quantiles of its samples; false when it has neither.
bool spreadOf(const LevelPoint& p, double& lo, double& hi)
{
    lo = p.p20;
    hi = p.p80;
    if (std::isfinite(lo) && std::isfinite(hi))
        return true;
    if (!p.samples || p.samples->empty())
        return false;
    std::vector<double> s = *p.samples;
    std::sort(s.begin(), s.end());
    lo = sortedQuantile(s, 0.2);
    hi = sortedQuantile(s, 0.8);
    return true;
}

QString percent(double logRatio)
{
    return QStringLiteral("%1%2 %")
        .arg(logRatio >= 0 ? QStringLiteral("+") : QString())
        .arg((std::exp(logRatio) - 1) * 100, 0, 'f', 1);
}

class Detector
{
public:
    Detector(const std::vector<LevelPoint>& points, const DetectionOptions& options)
        : m_points(points)
        , m_options(options)
        , m_logThreshold(std::log1p(std::max(0.0, options.threshold)))
    {
        m_log.reserve(points.size());
        for (const LevelPoint& p : points)
            m_log.push_back(std::log(p.median));
        if (int(points.size()) >= options.noiseMinPoints)
            m_sigma = runToRunNoise(m_log);
        // Every point is a candidate: Bonferroni over the n - 1 places a change could be.
        const double candidates = std::max(1.0, double(points.size()) - 1);
        m_pCritical = std::clamp(options.alpha, 1e-300, 0.5) / candidates;
        // Most series share a length and alpha: remember the last answer (one per thread).
        thread_local double lastP = -1, lastZ = 0;
        if (m_pCritical != lastP) {
            lastP = m_pCritical;
            lastZ = upperNormalQuantile(m_pCritical / 2);
        }
        m_zCritical = lastZ;
    }

    QVector<LevelChange> run();

private:
    struct Window
    {
        std::vector<int> indices; // into m_points
        double level = 0; // log of the median of medians
        bool hasSpread = false;
        double spread = 0; // median over the runs of sd(log value) read off p20-p80
    };
    struct Verdict
    {
        bool real = false;
        double pValue = std::numeric_limits<double>::quiet_NaN();
        QString evidence;
    };

    Window window(std::vector<int> indices) const;
    // Window::level of the points at `indices` (the same value), without making the window.
    double levelOf(const int* indices, int count) const;
    // Is the step from `before` to `after` (levels in log) real? `adjacentBefore/After`: the two runs either side.
    Verdict judge(const Window& before, const Window& after, int adjacentBefore, int adjacentAfter) const;
    bool verifyAt(const std::vector<int>& clean, int begin, int k, int end, LevelChange* change) const;
    void findOutliers(QVector<LevelChange>& out, std::vector<int>& clean);
    std::vector<int> segment(const std::vector<int>& clean) const;

    const std::vector<LevelPoint>& m_points;
    DetectionOptions m_options;
    double m_logThreshold;
    std::vector<double> m_log;
    double m_sigma = std::numeric_limits<double>::quiet_NaN();
    double m_pCritical = 0; // per comparison
    double m_zCritical = 0;
};

Detector::Window Detector::window(std::vector<int> indices) const
{
    Window w;
    w.indices = std::move(indices);
    std::vector<double> medians, spreads;
    for (int i : w.indices) {
        medians.push_back(m_points[size_t(i)].median);
        double lo = 0, hi = 0;
        if (spreadOf(m_points[size_t(i)], lo, hi) && lo > 0 && hi >= lo)
            spreads.push_back(std::log(hi / lo) / kP20P80Span);
    }
    w.level = std::log(medianOf(medians));
    w.hasSpread = !spreads.empty() && spreads.size() == w.indices.size();
    if (w.hasSpread)
        w.spread = medianOf(spreads);
    return w;
}

double Detector::levelOf(const int* indices, int count) const
{
    thread_local std::vector<double> medians; // no allocation per point: a series may hold a million
    medians.clear();
    for (int j = 0; j < count; ++j)
        medians.push_back(m_points[size_t(indices[j])].median);
    if (medians.empty())
        return std::log(std::numeric_limits<double>::quiet_NaN());
    std::sort(medians.begin(), medians.end());
    return std::log(sortedQuantile(medians, 0.5));
}

// The variance factor of a window's level: its median costs pi/2 over a mean from three runs on.
double medianFactor(size_t runs)
{
    return runs <= 2 ? 1.0 : kPi / 2;
}

Detector::Verdict Detector::judge(
    const Window& before, const Window& after, int adjacentBefore, int adjacentAfter) const
{
    Verdict v;
    const double step = after.level - before.level;
    if (!(std::abs(step) >= m_logThreshold))
        return v;
    const double nb = double(before.indices.size()), na = double(after.indices.size());
    const double fb = medianFactor(before.indices.size()), fa = medianFactor(after.indices.size());
    QStringList reasons;
    const std::vector<double>* sb = m_points[size_t(adjacentBefore)].samples;
    const std::vector<double>* sa = m_points[size_t(adjacentAfter)].samples;
    if (sb && sa && !sb->empty() && !sa->empty()) {
        const MannWhitneyResult mw = mannWhitneyU(*sa, *sb);
        v.pValue = mw.p;
        if (!(mw.valid && mw.p < m_pCritical && (mw.z > 0) == (step > 0)))
            return v;
        reasons << QStringLiteral("Mann-Whitney on raw samples p = %1").arg(mw.p, 0, 'g', 2);
    } else if (before.hasSpread && after.hasSpread) {
        const double se = std::sqrt(fb * before.spread * before.spread / nb + fa * after.spread * after.spread / na);
        const double z = se > 0 ? std::abs(step) / se : std::numeric_limits<double>::infinity();
        if (!(z >= m_zCritical))
            return v;
        reasons << (std::isfinite(z) ? QStringLiteral("%1 standard errors by the runs' p20–p80").arg(z, 0, 'f', 1)
                                     : QStringLiteral("the runs have no spread"));
    } else if (!std::isfinite(m_sigma)) {
        return v; // no spread and too short a series to know its noise: nothing says the step is real
    }
    if (std::isfinite(m_sigma)) {
        const double se = m_sigma * std::sqrt(fb / nb + fa / na);
        const double z = se > 0 ? std::abs(step) / se : std::numeric_limits<double>::infinity();
        if (!(z >= m_zCritical))
            return v;
        reasons << QStringLiteral("%1× the run-to-run noise (σ %2 %)").arg(z, 0, 'f', 1).arg(m_sigma * 100, 0, 'f', 1);
    }
    reasons << QStringLiteral("%1 run%2 before, %3 after")
                   .arg(before.indices.size())
                   .arg(before.indices.size() == 1 ? QString() : QStringLiteral("s"))
                   .arg(after.indices.size());
    v.real = true;
    v.evidence = reasons.join(QStringLiteral("; "));
    return v;
}

// The step between clean[k-1] and clean[k], levels from windows inside clean[begin, end).
bool Detector::verifyAt(const std::vector<int>& clean, int begin, int k, int end, LevelChange* change) const
{
    const int w = std::max(1, m_options.window);
    const Window before = window(std::vector<int>(clean.begin() + std::max(begin, k - w), clean.begin() + k));
    const Window after = window(std::vector<int>(clean.begin() + k, clean.begin() + std::min(end, k + w)));
    const Verdict v = judge(before, after, clean[size_t(k - 1)], clean[size_t(k)]);
    if (!v.real)
        return false;
    if (change) {
        change->kind = LevelChange::Kind::Step;
        change->index = clean[size_t(k)];
        change->beforeIndex = clean[size_t(k - 1)];
        change->before = std::exp(before.level);
        change->after = std::exp(after.level);
        change->ratio = change->after / change->before;
        change->runsBefore = int(before.indices.size());
        change->runsAfter = int(after.indices.size());
        change->pValue = v.pValue;
        change->confirmed = !(after.indices.size() == 1 && change->index + 1 == int(m_points.size()));
        change->evidence = percent(after.level - before.level) + QStringLiteral(": ") + v.evidence;
        if (!change->confirmed)
            change->evidence += QStringLiteral("; only the newest run so far");
    }
    return true;
}

// A point that leaves the level of its neighbours (up to 3 runs each side) by the threshold, in the same direction
// both ways, while they agree with each other. It is set aside from segmentation; it is reported when the noise
// says it is real.
void Detector::findOutliers(QVector<LevelChange>& out, std::vector<int>& clean)
{
    const int n = int(m_points.size());
    constexpr int kNeighbours = 3;
    std::vector<int> kept;
    for (int i = 0; i < n; ++i) {
        if (i == 0 || i + 1 == n) {
            kept.push_back(i);
            continue;
        }
        // The levels alone decide whether this is a spike (almost never): the windows are made only then.
        const int prevCount = std::min<int>(kNeighbours, int(kept.size()));
        const int nextCount = std::min(kNeighbours, n - i - 1);
        int nextIndices[kNeighbours];
        for (int j = 0; j < nextCount; ++j)
            nextIndices[j] = i + 1 + j;
        const double beforeLevel = levelOf(kept.data() + kept.size() - prevCount, prevCount);
        const double afterLevel = levelOf(nextIndices, nextCount);
        const double d1 = m_log[size_t(i)] - beforeLevel;
        const double d2 = m_log[size_t(i)] - afterLevel;
        const bool spike = std::abs(d1) >= m_logThreshold && std::abs(d2) >= m_logThreshold && (d1 > 0) == (d2 > 0)
            && std::abs(beforeLevel - afterLevel) < m_logThreshold;
        if (!spike) {
            kept.push_back(i);
            continue;
        }
        std::vector<int> prev(kept.end() - prevCount, kept.end());
        std::vector<int> next(nextIndices, nextIndices + nextCount);
        const Window before = window(prev);
        const Window after = window(next);
        const Window self = window({ i });
        const Verdict left = judge(before, self, prev.back(), i);
        const Verdict right = judge(after, self, next.front(), i);
        if (left.real && right.real) {
            LevelChange c;
            c.kind = LevelChange::Kind::Outlier;
            c.index = i;
            c.beforeIndex = prev.back();
            c.before = std::exp(before.level);
            c.after = m_points[size_t(i)].median;
            c.ratio = c.after / c.before;
            c.runsBefore = int(prev.size());
            c.runsAfter = 1;
            c.pValue = left.pValue;
            c.evidence = percent(d1) + QStringLiteral(" then back to the old level (")
                + percent(after.level - before.level) + QStringLiteral("): ") + left.evidence;
            out.append(c);
        }
    }
    clean = std::move(kept);
}

// Binary segmentation: the split of [a, b) that maximizes the CUSUM statistic of log medians, kept when
// verifyAt() says so, then each side again.
std::vector<int> Detector::segment(const std::vector<int>& clean) const
{
    const int m = int(clean.size());
    std::vector<double> prefix(size_t(m) + 1, 0.0);
    for (int i = 0; i < m; ++i)
        prefix[size_t(i) + 1] = prefix[size_t(i)] + m_log[size_t(clean[size_t(i)])];
    std::vector<int> found;
    std::vector<std::pair<int, int>> todo { { 0, m } };
    while (!todo.empty()) {
        const auto [a, b] = todo.back();
        todo.pop_back();
        if (b - a < 2)
            continue;
        int best = -1;
        double bestStat = -1;
        for (int k = a + 1; k < b; ++k) {
            const double nl = k - a, nr = b - k;
            const double ml = (prefix[size_t(k)] - prefix[size_t(a)]) / nl;
            const double mr = (prefix[size_t(b)] - prefix[size_t(k)]) / nr;
            const double stat = std::abs(ml - mr) * std::sqrt(nl * nr / (nl + nr));
            if (stat > bestStat) {
                bestStat = stat;
                best = k;
            }
        }
        if (best < 0 || !verifyAt(clean, a, best, b, nullptr))
            continue;
        found.push_back(best);
        todo.push_back({ a, best });
        todo.push_back({ best, b });
    }
    std::sort(found.begin(), found.end());
    return found;
}

QVector<LevelChange> Detector::run()
{
    QVector<LevelChange> out;
    const int n = int(m_points.size());
    if (n < 2)
        return out;
    for (const LevelPoint& p : m_points) {
        if (!(p.median > 0) || !std::isfinite(p.median))
            return out; // the caller keeps such runs out; refuse rather than guess
    }
    std::vector<int> clean;
    findOutliers(out, clean);
    std::vector<int> cuts = segment(clean);
    // Check again with windows that stop at the neighbouring changes; drop the weakest failure and repeat.
    const int m = int(clean.size());
    for (bool changed = true; changed && !cuts.empty();) {
        changed = false;
        int weakest = -1;
        double weakestStep = std::numeric_limits<double>::infinity();
        for (size_t j = 0; j < cuts.size(); ++j) {
            const int begin = j == 0 ? 0 : cuts[j - 1];
            const int end = j + 1 == cuts.size() ? m : cuts[j + 1];
            if (verifyAt(clean, begin, cuts[j], end, nullptr))
                continue;
            const double step
                = std::abs(m_log[size_t(clean[size_t(cuts[j])])] - m_log[size_t(clean[size_t(cuts[j] - 1)])]);
            if (step < weakestStep) {
                weakestStep = step;
                weakest = int(j);
            }
        }
        if (weakest >= 0) {
            cuts.erase(cuts.begin() + weakest);
            changed = true;
        }
    }
    for (size_t j = 0; j < cuts.size(); ++j) {
        LevelChange c;
        const int begin = j == 0 ? 0 : cuts[j - 1];
        const int end = j + 1 == cuts.size() ? m : cuts[j + 1];
        if (verifyAt(clean, begin, cuts[j], end, &c))
            out.append(c);
    }
    std::sort(out.begin(), out.end(), [](const LevelChange& a, const LevelChange& b) { return a.index < b.index; });
    return out;
}

} // namespace

double runToRunNoise(const std::vector<double>& logMedians)
{
    if (logMedians.size() < 3)
        return std::numeric_limits<double>::quiet_NaN();
    std::vector<double> diffs;
    diffs.reserve(logMedians.size() - 1);
    for (size_t i = 1; i < logMedians.size(); ++i)
        diffs.push_back(std::abs(logMedians[i] - logMedians[i - 1]));
    // MAD of differences of independent noise: 1.4826 * median|d| estimates sqrt(2) sigma.
    return 1.4826 * medianOf(diffs) / std::sqrt(2.0);
}

QVector<LevelChange> detectChanges(const std::vector<LevelPoint>& points, const DetectionOptions& options)
{
    return Detector(points, options).run();
}

} // namespace kix
