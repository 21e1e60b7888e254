// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QMetaObject>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QVector>

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
QT_END_NAMESPACE

namespace kix {

// Value labels at the ends of bars that never overlap: each label is placed right of its anchor (after the verdict
// marker) and kept only when it collides with no label placed before it (in the order given: top first); the
// labels left out are counted in a note drawn at the plot's top right ("12 of 40 value labels hidden: too dense;
// hover a bar"). Laid out again whenever the plot area changes. Qt's own bar labels overlap on dense charts.
class ValueLabels
{
public:
    struct Label
    {
        QPointF value; // the anchor, in the series' values
        QString text;
    };

    ValueLabels(QChart* chart, QAbstractSeries* series, const QColor& color);
    ~ValueLabels();
    ValueLabels(const ValueLabels&) = delete;
    ValueLabels& operator=(const ValueLabels&) = delete;

    void setLabels(const QVector<Label>& labels);
    // Marks a label must not cover (the verdict markers of every bar): points in the series' values, drawn `radius`
    // pixels around.
    void setObstacles(const QVector<QPointF>& values, double radius);
    void layout();

    int count() const { return int(m_labels.size()); }
    int hiddenCount() const { return m_hidden; }
    // The labels drawn, in chart coordinates, and their texts.
    QVector<QRectF> shownRects() const;
    QStringList shownTexts() const;
    QString note() const; // empty when every label is drawn
    // Where the note is drawn, in chart coordinates (empty when it is not).
    QRectF noteRect() const;

    // "1.84×", "12.3×", "128×": three significant digits.
    static QString ratioLabel(double ratio);

private:
    QChart* m_chart;
    QAbstractSeries* m_series;
    QColor m_color;
    QVector<Label> m_labels;
    QVector<QGraphicsSimpleTextItem*> m_items;
    QVector<QPointF> m_obstacles;
    double m_obstacleRadius = 0;
    QGraphicsRectItem* m_noteBox = nullptr; // the note's background: it lies over the plot
    QGraphicsSimpleTextItem* m_note = nullptr;
    int m_hidden = 0;
    QMetaObject::Connection m_connection;
};

} // namespace kix
