// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/distributiondata.h"
#include "ui/charts/chartoptions.h"

#include <QChart>

QT_BEGIN_NAMESPACE
class QGraphicsSceneResizeEvent;
class QXYSeries;
QT_END_NAMESPACE

namespace kix {

// The Quantiles view's Histogram and ECDF: two to four runs' raw samples overlaid on a log time axis, one series per
// run (a translucent step area for the histogram, a step line for the ECDF), each run's fractions of its own samples
// so that runs of unequal sample counts compare, and under the title each run's Mann–Whitney verdict against the
// first. Everything it shows comes from DistributionData (model/chartdata/distributiondata.h).
class DistributionChart : public QChart
{
public:
    DistributionChart(DistributionData data, QuantileView view, const ChartOptions& options);

    const DistributionData& data() const { return m_data; }
    QuantileView view() const { return m_view; }
    // The subtitle lines under the title: what the chart shows, then one verdict line per run after the first.
    const QStringList& subtitles() const { return m_subtitles; }

protected:
    // The title wrapped to the chart's width: Qt Charts would elide a long verdict line.
    void resizeEvent(QGraphicsSceneResizeEvent* event) override;

private:
    QXYSeries* addRun(int index, QAbstractAxis* x, QAbstractAxis* y, bool dark);
    QString hoverText(int index, double x) const;

    DistributionData m_data;
    QuantileView m_view;
    QStringList m_subtitles;
    bool m_dark = false;
    double m_fittedWidth = -1;
};

} // namespace kix
