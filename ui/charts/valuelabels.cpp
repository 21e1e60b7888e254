// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/valuelabels.h"

#include <QAbstractSeries>
#include <QChart>
#include <QFont>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>

#include <cmath>

namespace kix {

namespace {

constexpr double markerGap = 9; // the verdict marker (11 px) is centred on the bar's end
constexpr double spacing = 1; // between two labels

} // namespace

ValueLabels::ValueLabels(QChart* chart, QAbstractSeries* series, const QColor& color)
    : m_chart(chart)
    , m_series(series)
    , m_color(color)
{
    m_noteBox = new QGraphicsRectItem(chart);
    QColor background = color.lightness() > 128 ? QColor(Qt::black) : QColor(Qt::white);
    background.setAlpha(225);
    m_noteBox->setBrush(background);
    m_noteBox->setPen(Qt::NoPen);
    m_noteBox->setZValue(20);
    m_noteBox->setVisible(false);
    m_note = new QGraphicsSimpleTextItem(m_noteBox);
    QFont small = m_note->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_note->setFont(small);
    m_note->setBrush(color);
    m_connection = QObject::connect(chart, &QChart::plotAreaChanged, chart, [this] { layout(); });
}

ValueLabels::~ValueLabels()
{
    QObject::disconnect(m_connection); // the items belong to the chart
}

QString ValueLabels::ratioLabel(double ratio)
{
    if (!std::isfinite(ratio))
        return QStringLiteral("–");
    const int digits = ratio >= 100 ? 0 : ratio >= 10 ? 1 : ratio >= 1 ? 2 : 3;
    QString text = QString::number(ratio, 'f', digits);
    if (text.contains(QLatin1Char('.'))) { // "1.50" -> "1.5", "2.00" -> "2"
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return text + QStringLiteral("×");
}

void ValueLabels::setLabels(const QVector<Label>& labels)
{
    m_labels = labels;
    while (m_items.size() < m_labels.size()) {
        auto* item = new QGraphicsSimpleTextItem(m_chart);
        item->setBrush(m_color);
        item->setZValue(15);
        m_items << item;
    }
    for (int i = 0; i < m_items.size(); ++i) {
        m_items[i]->setVisible(false);
        if (i < m_labels.size())
            m_items[i]->setText(m_labels[i].text);
    }
    layout();
}

void ValueLabels::setObstacles(const QVector<QPointF>& values, double radius)
{
    m_obstacles = values;
    m_obstacleRadius = radius;
    layout();
}

void ValueLabels::layout()
{
    const QRectF plot = m_chart->plotArea();
    m_hidden = 0;
    if (plot.isEmpty() || m_labels.isEmpty()) {
        for (QGraphicsSimpleTextItem* item : std::as_const(m_items))
            item->setVisible(false);
        m_noteBox->setVisible(false);
        return;
    }
    // Place every label; the note's corner is kept free when any label must go.
    QVector<QRectF> rects(m_labels.size());
    for (int i = 0; i < m_labels.size(); ++i) {
        const QPointF at = m_chart->mapToPosition(m_labels[i].value, m_series);
        const QSizeF size = m_items[i]->boundingRect().size();
        QRectF r(QPointF(at.x() + markerGap, at.y() - size.height() / 2), size);
        if (r.right() > plot.right()) // beyond the plot: inside the bar's end instead
            r.moveRight(at.x() - markerGap);
        rects[i] = r;
    }
    QVector<QRectF> marks;
    for (const QPointF& v : std::as_const(m_obstacles)) {
        const QPointF at = m_chart->mapToPosition(v, m_series);
        marks << QRectF(
            at.x() - m_obstacleRadius, at.y() - m_obstacleRadius, 2 * m_obstacleRadius, 2 * m_obstacleRadius);
    }
    auto place = [&](const QRectF& reserved) {
        QVector<QRectF> placed = marks;
        int hidden = 0;
        for (int i = 0; i < rects.size(); ++i) {
            const QRectF padded = rects[i].adjusted(-spacing, -spacing, spacing, spacing);
            bool free = plot.adjusted(-markerGap, -2, 2, 2).contains(rects[i]) && !padded.intersects(reserved);
            for (int k = 0; free && k < placed.size(); ++k)
                free = !padded.intersects(placed[k]);
            m_items[i]->setVisible(free);
            if (free) {
                m_items[i]->setPos(rects[i].topLeft());
                placed << rects[i];
            } else {
                ++hidden;
            }
        }
        return hidden;
    };
    m_hidden = place(QRectF());
    if (m_hidden > 0) {
        auto text = [this] {
            return QStringLiteral("%1 of %2 value labels hidden: too dense (hover a bar)").arg(m_hidden).arg(count());
        };
        m_note->setText(text());
        const QSizeF size = m_note->boundingRect().size() + QSizeF(6, 2);
        const QRectF noteRect(QPointF(plot.right() - size.width() - 2, plot.top() + 2), size);
        m_hidden = place(noteRect);
        m_note->setText(text());
        m_noteBox->setRect(QRectF(QPointF(0, 0), m_note->boundingRect().size() + QSizeF(6, 2)));
        m_noteBox->setPos(noteRect.topLeft());
        m_note->setPos(3, 1);
        m_noteBox->setVisible(true);
    } else {
        m_noteBox->setVisible(false);
    }
    for (int i = int(m_labels.size()); i < m_items.size(); ++i)
        m_items[i]->setVisible(false);
}

QVector<QRectF> ValueLabels::shownRects() const
{
    QVector<QRectF> out;
    for (int i = 0; i < m_labels.size(); ++i) {
        if (m_items[i]->isVisible())
            out << QRectF(m_items[i]->pos(), m_items[i]->boundingRect().size());
    }
    return out;
}

QStringList ValueLabels::shownTexts() const
{
    QStringList out;
    for (int i = 0; i < m_labels.size(); ++i) {
        if (m_items[i]->isVisible())
            out << m_items[i]->text();
    }
    return out;
}

QRectF ValueLabels::noteRect() const
{
    return m_noteBox->isVisible() ? QRectF(m_noteBox->pos(), m_noteBox->rect().size()) : QRectF();
}

QString ValueLabels::note() const
{
    return m_noteBox->isVisible() ? m_note->text() : QString();
}

} // namespace kix
