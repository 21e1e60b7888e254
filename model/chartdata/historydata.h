// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/timescale.h"
#include "model/history/history.h"

#include <QStringList>
#include <QVector>

namespace kix {

// What the history chart draws, built from runs without any widget (callable from a worker thread): one line per
// series drawn with its p20-p80 band, the change marks, the axes' titles and ranges, the title and the notes.
struct HistoryLineData
{
    int series = 0; // index into HistoryData::history.series
    QString name; // legend: only what differs among the lines ("liger · 1024")
    QString bandName; // "<series title> p20–p80"
    QVector<double> x; // ms since the epoch, or the ordinal position of the point's label
    QVector<double> median; // in the y axis' unit (TimeScale for latency, MB for memory)
    QVector<double> low; // p20, else the median
    QVector<double> high; // p80, else the median
    // When the series has more points than HistoryDataOptions::maxPoints, only some are drawn (minMaxDownsample):
    // source[k] is the index into the series' points of drawn point k, and a bucket of `perPoint` runs keeps its
    // lowest and highest median and every change point; the band then spans the bucket's lowest p20 and highest
    // p80. Empty `source`: every point is drawn, point k is the series' point k.
    QVector<int> source;
    int perPoint = 1;

    bool isCapped() const { return !source.isEmpty(); }
    int seriesPoint(int drawn) const { return source.isEmpty() ? drawn : source.value(drawn, -1); }
    int drawnPoint(int seriesPoint) const; // -1 when that point is not drawn
};

struct HistoryMarkData
{
    ChangeKind kind = ChangeKind::Regression;
    int line = 0; // index into HistoryData::lines
    int point = 0; // index into the line's points
    double x = 0;
    double y = 0; // the point's median, in the y axis' unit
};

struct HistoryDataOptions
{
    double threshold = 0.05; // the smallest step that counts as a change
    int maxSeries = 16; // lines drawn at most (those with the largest changes first); the rest are counted in a note
    QString xParam; // "time", "label", or empty: by label when every point has one
    bool logY = false;
    int maxPoints = 1200; // points drawn per line at most, besides change points (0: every point)
    // Points drawn over all lines at most, besides change points (0: no budget): many long lines share it, each
    // keeping at least minPointsPerLine. Qt Charts outlines every drawn point on the GUI thread when the chart is
    // shown (16 lines of 1,200 points: about 25 ms at each show), so the budget bounds that, not only the data.
    int maxTotalPoints = 6000;
    int minPointsPerLine = 300;
    RunPtr keep; // a run whose point is always drawn (the current run, which the chart marks)
};

struct HistoryData
{
    History history;
    QVector<int> drawn; // indices into history.series of the lines, ascending
    int candidates = 0; // series of the charted metric (drawn + folded)
    int otherMetric = 0; // series of the other metric, never drawn beside the charted one
    bool latency = true; // the charted metric is latency (else memory)
    TimeScale scale; // latency only
    bool byLabel = false; // an ordinal x axis of version labels
    QStringList ordinal; // the label axis' categories, in order of first appearance in time
    QString xTitle;
    QString yTitle;
    QVector<HistoryLineData> lines; // in the order of `drawn`
    QVector<HistoryMarkData> marks; // by kind (regression, improvement, outlier), then line
    bool hasRange = false; // false when nothing is drawn
    double xMin = 0; // ms since the epoch (time axis) or ordinal position (label axis)
    double xMax = 0;
    double yMin = 0;
    double yMax = 0;
    bool logY = false; // the y range is for a logarithmic axis (else linear, from 0: round it up)

    QString title; // "History · group_norm · backward · B200"
    QStringList subtitles; // what every line shares, then the change counts
    QStringList notes; // series left out, other metric, the history's own notes
    QStringList warnings; // unplaceable runs
    QStringList xCandidates; // "time", and "label" when any point has a label
    QString xParam; // "time" or "label": the one in effect

    bool isEmpty() const { return drawn.isEmpty(); }
    int markCount(ChangeKind kind) const;
    int cappedLines() const; // lines drawn with fewer points than their series has
    // The run's read-out: series title, label and time, median/p20/p80, same-time note, changes, id and place.
    QString tooltip(int line, int point) const; // point: an index into the series' points (seriesPoint)
};

HistoryData buildHistoryData(
    const RunList& runs, const HistoryDataOptions& options = {}, const CancelToken& cancel = CancelToken());

} // namespace kix
