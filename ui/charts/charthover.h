// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QString>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace kix {

// What a chart says about the point under the mouse. Every chart kind reports through its own ChartHover (a
// child of the chart), so the panel shows one read-out for all of them: hover shows it, a click pins it. A chart
// kind added later calls ChartHover::of(this)->hover(text) from its series' hovered signals and gets the same.
class ChartHover : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    // The chart's hover reporter, created on first use.
    static ChartHover* of(QChart* chart);
    // Also shows the text as a tooltip at the mouse; an empty text hides it.
    void hover(const QString& text);
    void click(const QString& text);

signals:
    void hovered(const QString& text); // empty: the mouse left the element
    void clicked(const QString& text);
};

} // namespace kix
