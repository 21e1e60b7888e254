// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QVector>

#include <limits>
#include <vector>

namespace kix {

// One point of a series as change detection sees it: the run's median, its p20-p80 spread when it has one, and
// its raw samples when it carries them. Values are positive (ns, MB).
struct LevelPoint
{
    double median = std::numeric_limits<double>::quiet_NaN();
    double p20 = std::numeric_limits<double>::quiet_NaN();
    double p80 = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double>* samples = nullptr; // not owned; may be null or empty
};

struct DetectionOptions
{
    double threshold = 0.05; // the smallest step that counts: 5 % (a ratio of 1.05 or 1 / 1.05)
    // The chance, per series, that pure noise is reported: split over the n - 1 places a change could be
    // (Bonferroni), it sets the p-value a Mann-Whitney test must beat and the standard errors a step must exceed.
    double alpha = 1e-4;
    int window = 5; // runs each side that estimate a level
    int noiseMinPoints = 8; // from this many runs on, run-to-run noise is estimated from the series itself
};

// What one change looks like. Indices are into the points given to detectChanges().
struct LevelChange
{
    enum class Kind { Step, Outlier };
    Kind kind = Kind::Step;
    int index = -1; // first point of the new level (Step), or the outlier itself
    int beforeIndex = -1; // last point of the old level
    double before = 0; // level (median of the window's medians) before
    double after = 0; // level after (Step), or the outlier's median
    double ratio = 1; // after / before
    int runsBefore = 0; // runs that estimate each level
    int runsAfter = 0;
    double pValue = std::numeric_limits<double>::quiet_NaN(); // Mann-Whitney on raw samples, when that decided
    bool confirmed = true; // false when only the newest run shows the step
    QString evidence; // for a reader: what says the step is real
};

// Finds level changes and lone outliers in a series ordered in time. See the README (History) for the method:
//  1. a point that leaves its neighbours' level by more than the threshold while they agree with each other is
//     an outlier; it is set aside;
//  2. binary segmentation (the CUSUM split of log medians) proposes change points;
//  3. each is kept only when the levels either side (medians of up to `window` runs) differ by the threshold AND
//     the noise says so: Mann-Whitney on the adjacent runs' raw samples when both carry them, else the step in
//     standard errors read off the runs' p20-p80 (a normal's p20-p80 spans 1.683 sd); on series of noiseMinPoints
//     runs or more, the step must also stand out from the run-to-run noise (a robust sd from the median absolute
//     successive difference). Both at alpha / (n - 1).
//  4. kept changes are checked again with windows that stop at their neighbouring changes.
QVector<LevelChange> detectChanges(const std::vector<LevelPoint>& points, const DetectionOptions& options = {});

// The run-to-run noise of log medians (a robust standard deviation), NaN for fewer than 3 points.
double runToRunNoise(const std::vector<double>& logMedians);

} // namespace kix
