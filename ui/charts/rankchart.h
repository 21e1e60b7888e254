// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/compare/rank.h"
#include "ui/charts/chartoptions.h"

#include <QChart>
#include <QFont>
#include <QHash>

#include <memory>

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QBarSet;
class QFontMetricsF;
class QHorizontalBarSeries;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace kix {

class ValueLabels;

// One cohort's ranking (model/compare/rank.h) as horizontal bars, best at the top: each bar is the ratio of the
// implementation's best value to the cohort's best (1× for the best), labelled with it, with a marker at its end
// that says whether it is distinguishable from the best (★ best, ◆ slower beyond the noise, ● not
// distinguishable, □ no noise recorded). Implementation names read in full: they wrap to the width Qt gives the
// axis (at most 40% of the chart) and the chart draws only as many entries as its height gives every label room
// for (best first; the title says how many of how many). It lays itself out again at every size, so the window,
// an export and `kix chart` all keep the labels whole.
class RankChart : public QChart
{
public:
    RankChart(RankCohort cohort, const ChartOptions& options);
    ~RankChart() override;

    const RankCohort& cohort() const { return m_cohort; }
    QHorizontalBarSeries* bars() const { return m_bars; }
    QBarCategoryAxis* categoryAxis() const { return m_axis; }
    // The entries drawn, best first (the best `shown` of the cohort).
    int shownEntries() const { return m_shown; }
    // The axis labels of the drawn entries, top first, as rich text ("amd-fp8-<br>mm").
    QStringList axisLabels() const { return m_labels; }
    QScatterSeries* markers(Distinguishable d) const { return m_markers.value(int(d)); }
    // The bars' value labels as drawn (those that would overlap are left out, with a note).
    const ValueLabels* valueLabels() const { return m_valueLabels.get(); }

    static QString tooltip(const RankEntry& entry, const CohortKey& key);
    // `text` broken into lines no wider than `width`: after '-', '_', '/', '.', ' ' where it can, anywhere where a
    // piece alone is too wide. Joining the lines gives `text` back.
    static QStringList wrapLabel(const QString& text, const QFontMetricsF& metrics, double width);

protected:
    void resizeEvent(QGraphicsSceneResizeEvent* event) override;

private:
    void layoutFor(const QSizeF& size);
    void fill(int shown, double wrapWidth);
    void updateTitle();

    RankCohort m_cohort;
    ChartOptions m_options;
    QHorizontalBarSeries* m_bars = nullptr;
    QBarSet* m_set = nullptr;
    std::unique_ptr<ValueLabels> m_valueLabels;
    QBarCategoryAxis* m_axis = nullptr;
    QValueAxis* m_x = nullptr;
    QHash<int, QScatterSeries*> m_markers;
    QStringList m_labels;
    int m_shown = -1;
    double m_wrapWidth = -1;
    double m_titleWidth = -1; // px the title wraps to (-1: not wrapped)
    QFont m_legendFont; // the legend's font, before any shrinking to fit
};

// The Rank chart of `runs` for the panel, the export and `kix chart`: the cohort options.cohort names (its id, or
// text its description contains), else the cohort of options.cohortRun, else the largest; fills the chooser's
// cohorts in `info`.
std::unique_ptr<QChart> buildRankChart(const RunList& runs, const ChartOptions& options, ChartInfo& info);
// The same from the ranking already made (rankRuns: off the GUI thread, see prepareChart).
std::unique_ptr<QChart> buildRankChart(const Ranking& ranking, const ChartOptions& options, ChartInfo& info);
// buildRankChart() in two steps: chooseRankCohort() fills `info` (the chooser's cohorts, the notes, the title) and
// returns the cohort to draw (-1: none); it creates no Qt object and reads every cohort, so the chart panel calls it
// off the GUI thread (prepareChart). drawRankChart() draws that cohort.
int chooseRankCohort(const Ranking& ranking, const ChartOptions& options, ChartInfo& info);
std::unique_ptr<QChart> drawRankChart(const Ranking& ranking, int cohort, const ChartOptions& options);

} // namespace kix
