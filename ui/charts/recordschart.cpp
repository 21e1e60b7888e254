// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/recordschart.h"

#include "model/chartdata/quantiledata.h"
#include "model/chartdata/timescale.h"
#include "ui/charts/charthover.h"
#include "ui/charts/chartstyle.h"

#include <QDateTimeAxis>
#include <QFontMetricsF>
#include <QGraphicsSceneResizeEvent>
#include <QGraphicsTextItem>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QTextDocument>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace kix {

namespace {

constexpr int maxStandings = 8; // rows per standings table: the chart's side is no leaderboard
constexpr double standingsWidth = 230; // px the standings take right of the plot

QString dateText(const QDateTime& at)
{
    return at.isValid() ? at.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")) + QStringLiteral(" UTC")
                        : QStringLiteral("(undated)");
}

// ns per unit of a time unit, 0 for another unit (a score without one, bytes).
double nsPer(const QString& unit)
{
    if (unit == QLatin1String("ns"))
        return 1;
    if (unit == QLatin1String("us") || unit == QStringLiteral("µs"))
        return 1e3;
    if (unit == QLatin1String("ms"))
        return 1e6;
    if (unit == QLatin1String("s"))
        return 1e9;
    return 0;
}

double msecs(const QDateTime& at)
{
    return double(at.toMSecsSinceEpoch());
}

QString standingsTable(const QString& title, const QVector<RecordStanding>& rows, QString& plain)
{
    plain += title + QLatin1Char('\n');
    QString html = QStringLiteral("<tr><td colspan=3><b>%1</b></td></tr>").arg(title.toHtmlEscaped());
    html += QStringLiteral(
        "<tr><td></td><td align=right width=36><i>now</i></td><td align=right width=36><i>ever</i></td></tr>");
    const int shown = std::min<int>(maxStandings, int(rows.size()));
    for (int i = 0; i < shown; ++i) {
        const RecordStanding& s = rows[i];
        QString name = s.holder;
        if (name.size() > 22)
            name = name.left(21) + QChar(0x2026);
        html += QStringLiteral("<tr><td nowrap>%1</td><td align=right width=36>%2</td><td align=right width=36>%3</td>"
                               "</tr>")
                    .arg(name.toHtmlEscaped())
                    .arg(s.now)
                    .arg(s.ever);
        plain += QStringLiteral("%1 now %2 ever %3\n").arg(s.holder).arg(s.now).arg(s.ever);
    }
    if (rows.size() > shown) {
        html += QStringLiteral("<tr><td colspan=3><i>and %1 more (kix records)</i></td></tr>").arg(rows.size() - shown);
        plain += QStringLiteral("and %1 more\n").arg(rows.size() - shown);
    }
    return html;
}

} // namespace

RecordsChart::RecordsChart(RecordTimeline timeline, const Records& all, const ChartOptions& options)
    : m_timeline(std::move(timeline))
    , m_dark(options.dark)
{
    ChartStyle::apply(this, options.dark);
    double lo = std::numeric_limits<double>::infinity();
    double hi = 0;
    int undated = 0;
    const QString axisUnit = measureSteps(lo, hi, undated);
    QDateTimeAxis* x = createAxes(axisUnit);
    double end = 0;
    const QList<QPointF> marks = addSeriesFor(options, end);
    fitAxes(x, marks, end, lo, hi);
    for (int d = 0; d < m_drawn.size() && options.currentRun; ++d) {
        if (m_timeline.steps[m_drawn[d]].run == options.currentRun)
            ChartStyle::markCurrentRun(this, options.currentRun, { marks[d] }, m_x, m_y, tooltip(m_drawn[d]), m_dark);
    }
    setTitles(undated);
    addStandings(all, options);
}

// The steps to draw (dated, positive), their range, whether the value axis is logarithmic and the unit it reads in.
QString RecordsChart::measureSteps(double& lo, double& hi, int& undated)
{
    const CohortKey& k = m_timeline.key;
    for (int i = 0; i < m_timeline.steps.size(); ++i) {
        const RecordStep& s = m_timeline.steps[i];
        if (!s.at.isValid() || !(s.value > 0)) {
            ++undated;
            continue;
        }
        m_drawn << i;
        lo = std::min(lo, s.value);
        hi = std::max(hi, s.value);
    }
    m_logY = !m_drawn.isEmpty() && hi / lo >= 10; // a decade or more: a linear axis would flatten the later steps
    // Times read in the unit that suits them (232.5 µs, not 0.0002325 s), as the run table shows them.
    QString axisUnit = k.unit;
    if (const double ns = nsPer(k.unit); ns > 0 && !m_drawn.isEmpty()) {
        std::vector<double> values;
        for (int i : std::as_const(m_drawn))
            values.push_back(m_timeline.steps[i].value * ns);
        const TimeScale scale = chooseTimeScale(values);
        m_scale = ns / scale.nsPerUnit;
        axisUnit = scale.unit;
        lo *= m_scale;
        hi *= m_scale;
    }
    return axisUnit;
}

// The date axis (returned) and the value axis, linear or logarithmic.
QDateTimeAxis* RecordsChart::createAxes(const QString& axisUnit)
{
    const CohortKey& k = m_timeline.key;
    auto* x = new QDateTimeAxis;
    x->setFormat(QStringLiteral("yyyy-MM-dd"));
    x->setTitleText(QStringLiteral("observed at (UTC)"));
    m_x = x;
    if (m_logY) {
        auto* axis = new QLogValueAxis;
        axis->setBase(10);
        axis->setMinorTickCount(8);
        axis->setLabelFormat(QStringLiteral("%g"));
        m_y = axis;
    } else {
        auto* axis = new QValueAxis;
        axis->setLabelFormat(QStringLiteral("%g"));
        m_y = axis;
    }
    m_y->setTitleText(QStringLiteral("record %1 %2 (%3), lower is better").arg(k.metric, k.statistic, axisUnit));
    addAxis(m_x, Qt::AlignBottom);
    addAxis(m_y, Qt::AlignLeft);
    return x;
}

// The staircase and the markers with their read-outs; returns the markers' points and sets `end`, the staircase's
// last x.
QList<QPointF> RecordsChart::addSeriesFor(const ChartOptions& options, double& end)
{
    m_line = new QLineSeries;
    m_line->setName(QStringLiteral("record in effect"));
    m_markers = new QScatterSeries;
    m_markers->setName(QStringLiteral("a new record (hover: who set it)"));
    m_markers->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_markers->setMarkerSize(10);
    const QColor color = ChartStyle::seriesColor(0, options.dark);
    QList<QPointF> stairs, marks;
    for (int d = 0; d < m_drawn.size(); ++d) {
        const RecordStep& s = m_timeline.steps[m_drawn[d]];
        if (d > 0) // the previous record holds until this one
            stairs << QPointF(msecs(s.at), plotted(m_timeline.steps[m_drawn[d - 1]].value));
        stairs << QPointF(msecs(s.at), plotted(s.value));
        marks << QPointF(msecs(s.at), plotted(s.value));
    }
    end = stairs.isEmpty() ? 0 : stairs.back().x();
    if (!stairs.isEmpty() && m_timeline.lastObserved.isValid() && msecs(m_timeline.lastObserved) > end) {
        end = msecs(m_timeline.lastObserved);
        stairs << QPointF(end, stairs.back().y()); // held at least until the cohort's latest observation
    }
    m_line->replace(stairs);
    m_markers->replace(marks);
    addSeries(m_line);
    addSeries(m_markers);
    m_line->setPen(QPen(color, 2));
    m_markers->setColor(color);
    m_markers->setBorderColor(options.dark ? QColor(Qt::white) : QColor(0x20, 0x20, 0x20));
    for (QAbstractSeries* s : { static_cast<QAbstractSeries*>(m_line), static_cast<QAbstractSeries*>(m_markers) }) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    QObject::connect(m_markers, &QScatterSeries::hovered, m_markers, [this](const QPointF& at, bool state) {
        ChartHover::of(this)->hover(state ? tooltip(stepAt(at.x())) : QString());
    });
    QObject::connect(m_markers, &QScatterSeries::clicked, m_markers,
        [this](const QPointF& at) { ChartHover::of(this)->click(tooltip(stepAt(at.x()))); });
    QObject::connect(m_line, &QLineSeries::hovered, m_line, [this](const QPointF& at, bool state) {
        ChartHover::of(this)->hover(state ? tooltip(stepAt(at.x())) : QString());
    });
    QObject::connect(m_line, &QLineSeries::clicked, m_line,
        [this](const QPointF& at) { ChartHover::of(this)->click(tooltip(stepAt(at.x()))); });
    return marks;
}

// The axes' ranges around the records drawn, padded; short spans read their dates with the time.
void RecordsChart::fitAxes(QDateTimeAxis* x, const QList<QPointF>& marks, double end, double lo, double hi)
{
    if (!marks.isEmpty()) {
        const double first = marks.front().x();
        const double pad = std::max((end - first) * 0.04, 12.0 * 3600 * 1000); // ms: half a day at least
        if (end + pad - (first - pad) < 4 * 24 * 3600 * 1000.0) // a few days: the dates alone would repeat
            x->setFormat(QStringLiteral("MM-dd HH:mm"));
        x->setRange(QDateTime::fromMSecsSinceEpoch(qint64(first - pad), Qt::UTC),
            QDateTime::fromMSecsSinceEpoch(qint64(end + pad), Qt::UTC));
        if (m_logY)
            m_y->setRange(lo / 1.3, hi * 1.3);
        else {
            const double span = std::max(hi - lo, hi * 0.05);
            m_y->setRange(std::max(0.0, lo - 0.15 * span), hi + 0.15 * span);
            static_cast<QValueAxis*>(m_y)->applyNiceNumbers();
        }
    }
}

// The title: the cohort, then who holds the record now; the warnings about steps not drawn and the export.
void RecordsChart::setTitles(int undated)
{
    const CohortKey& k = m_timeline.key;
    const QString operation
        = QStringList { k.kernel, k.pass }.filter(QRegularExpression(QStringLiteral("\\S"))).join(QLatin1Char(' '));
    const QStringList parts
        = QStringList { operation, k.workload.isEmpty() ? k.workloadTitle : k.workload, shortGpuName(k.gpuName) }
              .filter(QRegularExpression(QStringLiteral("\\S")));
    m_title = parts.isEmpty() ? QStringLiteral("Records")
                              : QStringLiteral("Records — ") + parts.join(QStringLiteral(" · "));
    if (!m_timeline.steps.isEmpty()) {
        const RecordStep& now = m_timeline.steps.back();
        m_subtitles << QStringLiteral("%1 record%2 · held now by %3 at %4 since %5")
                           .arg(m_timeline.steps.size())
                           .arg(m_timeline.steps.size() == 1 ? QString() : QStringLiteral("s"))
                           .arg(recordHolder(*now.run), formatValue(*now.run, now.value), dateText(now.at));
    }
    m_subtitles << QStringLiteral("cohort: %1 · a record is a passed run strictly better than every earlier one")
                       .arg(k.scopeText());
    if (undated > 0)
        m_warnings << QStringLiteral(
            "%1 record%2 without a date or a positive value not drawn (kix records lists them)")
                          .arg(undated)
                          .arg(undated == 1 ? QString() : QStringLiteral("s"));
    for (const QString& d : std::as_const(m_timeline.exportDisagreements)) // said in the chart, never hidden
        m_warnings << QStringLiteral("disagrees with the export's record_events: ") + d;
    if (m_timeline.exportCompared && m_timeline.exportDisagreements.isEmpty())
        m_subtitles << QStringLiteral("the same ledger as the export's record_events");
    setTitle(ChartStyle::titleHtml(m_title, m_subtitles, m_warnings, m_dark));
    legend()->setAlignment(Qt::AlignBottom);
}

// The standings of every cohort in scope, beside the plot.
void RecordsChart::addStandings(const Records& all, const ChartOptions& options)
{
    QString html = QStringLiteral("<table cellspacing=0 cellpadding=1>");
    m_standingsText = QStringLiteral("Standings over %1 cohort%2\n")
                          .arg(all.timelines.size())
                          .arg(all.timelines.size() == 1 ? QString() : QStringLiteral("s"));
    html += QStringLiteral("<tr><td colspan=3>%1</td></tr>").arg(m_standingsText.trimmed().toHtmlEscaped());
    html += standingsTable(QStringLiteral("per author"), all.standings, m_standingsText);
    html += QStringLiteral("<tr><td colspan=3></td></tr>");
    const bool sameAsAuthors = std::equal(all.projects.begin(), all.projects.end(), all.standings.begin(),
        all.standings.end(), [](const RecordStanding& a, const RecordStanding& b) {
            return a.holder == b.holder && a.now == b.now && a.ever == b.ever;
        });
    if (sameAsAuthors && !all.projects.isEmpty()) { // a leaderboard's submissions name no project apart from them
        m_standingsText += QStringLiteral("per project: the same (no project apart from its authors)\n");
        html += QStringLiteral("<tr><td colspan=3><b>per project</b>: the same<br><i>(no project apart from its "
                               "authors)</i></td></tr>");
    } else
        html += standingsTable(QStringLiteral("per project"), all.projects, m_standingsText);
    html += QStringLiteral("</table>");
    m_standings = new QGraphicsTextItem(this);
    m_standings->setDefaultTextColor(options.dark ? QColor(0xee, 0xee, 0xee) : QColor(0x20, 0x20, 0x20));
    QFont font = m_standings->font();
    font.setPointSizeF(std::max(7.0, font.pointSizeF() * 0.9));
    m_standings->setFont(font);
    m_standings->setHtml(html);
    m_standings->setTextWidth(standingsWidth - 10);
    m_standings->setZValue(10);
    QMargins room = margins();
    room.setRight(room.right() + int(standingsWidth));
    setMargins(room);
    QObject::connect(this, &QChart::plotAreaChanged, this, [this](const QRectF&) { placeStandings(); });
}

RecordsChart::~RecordsChart() = default;

void RecordsChart::placeStandings()
{
    const QRectF plot = plotArea();
    m_standings->setPos(plot.right() + 24, plot.top());
}

void RecordsChart::resizeEvent(QGraphicsSceneResizeEvent* event)
{
    QChart::resizeEvent(event);
    const double width = size().width() - margins().left() - margins().right() - 16 + standingsWidth;
    if (width > 0 && width != m_fittedWidth) {
        m_fittedWidth = width;
        setTitle(ChartStyle::titleHtml(m_title, m_subtitles, m_warnings, m_dark, titleFont(), width));
    }
    placeStandings();
}

int RecordsChart::stepAt(double at) const
{
    int found = -1;
    for (int d = 0; d < m_drawn.size(); ++d) {
        // a half-second tolerance: the point reported under the mouse is the marker's, in double precision
        if (msecs(m_timeline.steps[m_drawn[d]].at) <= at + 500)
            found = m_drawn[d];
    }
    return found;
}

QString RecordsChart::tooltip(int step) const
{
    if (step < 0 || step >= m_timeline.steps.size())
        return {};
    const RecordStep& s = m_timeline.steps[step];
    QString text = QStringLiteral("Record %1 of %2: %3 — %4\n")
                       .arg(step + 1)
                       .arg(m_timeline.steps.size())
                       .arg(recordHolder(*s.run), formatValue(*s.run, s.value));
    text += QStringLiteral("set %1 by %2").arg(dateText(s.at), s.run->implementationLabel());
    if (s.previous)
        text += QStringLiteral(" · %1 over %2 (%3)")
                    .arg(recordMarginText(s.margin), recordHolder(*s.previous),
                        formatValue(*s.previous, m_timeline.steps[step - 1].value));
    else
        text += QStringLiteral(" · the cohort's first record");
    text += QLatin1Char('\n');
    text += step + 1 < m_timeline.steps.size()
        ? QStringLiteral("held until %1").arg(dateText(m_timeline.steps[step + 1].at))
        : QStringLiteral("holds the record now");
    text += QLatin1Char('\n');
    if (s.run->externalId.isEmpty())
        text += QStringLiteral("file ") + s.run->file + s.run->pointer;
    else
        text += QStringLiteral("external id ") + s.run->externalId;
    return text;
}

QString RecordsChart::standingsText() const
{
    return m_standingsText;
}

int chooseRecordsTimeline(const Records& records, const ChartOptions& options, ChartInfo& info)
{
    QVector<int> order; // the chooser: most records first
    for (int i = 0; i < records.timelines.size(); ++i)
        order << i;
    std::stable_sort(order.begin(), order.end(),
        [&records](int a, int b) { return records.timelines[a].steps.size() > records.timelines[b].steps.size(); });
    constexpr int maxChoices = 300;
    for (int i = 0; i < std::min<int>(maxChoices, int(order.size())); ++i) {
        const RecordTimeline& t = records.timelines[order[i]];
        info.cohortIds << t.key.id();
        info.cohorts << QStringLiteral("%1 (%2 record%3)")
                            .arg(t.key.describe())
                            .arg(t.steps.size())
                            .arg(t.steps.size() == 1 ? QString() : QStringLiteral("s"));
    }
    if (order.size() > maxChoices)
        info.notes << QStringLiteral("%1 cohorts in scope: the chooser lists the %2 with the most records; filter to "
                                     "reach the rest")
                          .arg(order.size())
                          .arg(maxChoices);
    auto find = [&](const QString& id) {
        for (int i = 0; i < records.timelines.size(); ++i)
            if (records.timelines[i].key.id() == id)
                return i;
        return -1;
    };
    int chosen = -1;
    if (!options.cohort.isEmpty()) {
        chosen = find(options.cohort);
        for (int i = 0; chosen < 0 && i < order.size(); ++i) {
            if (records.timelines[order[i]].key.describe().contains(options.cohort, Qt::CaseInsensitive))
                chosen = order[i];
        }
        if (chosen < 0)
            info.notes << QStringLiteral("the chosen cohort is not in scope: showing the %1")
                              .arg(options.cohortRun ? QStringLiteral("current run's")
                                                     : QStringLiteral("one with the most records"));
    }
    if (chosen < 0 && options.cohortRun)
        chosen = find(CohortKey::of(*options.cohortRun).id());
    if (chosen < 0 && !order.isEmpty())
        chosen = order.front();
    if (order.size() > 1)
        info.notes
            << QStringLiteral("%1 cohorts with records in scope: one is drawn, choose another above").arg(order.size());
    if (chosen < 0) {
        info.title = QStringLiteral("Records");
        info.notes.prepend(QStringLiteral("no cohort with a ranked run: no records"));
        info.isEmpty = true;
        return -1;
    }
    for (const QString& d : records.timelines[chosen].exportDisagreements)
        info.warnings << QStringLiteral("kix's ledger disagrees with the export's record_events: ") + d;
    const int others = records.exportDisagreeing - (records.timelines[chosen].exportDisagreements.isEmpty() ? 0 : 1);
    if (others > 0)
        info.warnings << QStringLiteral("kix's ledger disagrees with the export's record_events in %1 other cohort(s): "
                                        "kix records lists them")
                             .arg(others);
    info.notes += records.exportNotes;
    info.cohort = records.timelines[chosen].key.id();
    info.title = QStringLiteral("Records — ") + records.timelines[chosen].key.describe();
    info.isEmpty = false;
    return chosen;
}

std::unique_ptr<QChart> drawRecordsChart(const Records& records, int timeline, const ChartOptions& options)
{
    if (timeline < 0 || timeline >= records.timelines.size())
        return std::make_unique<RecordsChart>(RecordTimeline {}, records, options);
    return std::make_unique<RecordsChart>(records.timelines[timeline], records, options);
}

} // namespace kix
