// SPDX-License-Identifier: Apache-2.0
// ChartPanel: the controls around its chart (choosers, banner, read-out) kept in step with it; export and copy.
#include "ui/panels/chartpanel.h"

#include "model/chartdata/quantiledata.h"
#include "model/workload.h"
#include "ui/chartexportdialog.h"
#include "ui/charts/chartbanner.h"
#include "ui/charts/chartexporter.h"
#include "ui/charts/chartstyle.h"
#include "ui/models/overviewmodel.h"
#include "ui/panels/compareview.h"
#include "ui/panels/overviewtable.h"
#include "ui/panels/quantileviewchooser.h"

#include <QChartView>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QGuiApplication>
#include <QLabel>
#include <QMessageBox>
#include <QScatterSeries>
#include <QToolButton>

namespace kix {

namespace {

const QString kDefaultBaseline = QStringLiteral("<default>");
const QString kCurrentRunBaseline = QStringLiteral("<current run>");

} // namespace

void ChartPanel::chooseBaseline()
{
    const QString choice = m_baselineBox->currentData().toString();
    if (choice == kDefaultBaseline)
        m_chosen = {};
    else if (choice == kCurrentRunBaseline)
        m_chosen = m_chosen.isRun() ? m_chosen : m_currentRun ? Baseline::ofRun(m_currentRun) : Baseline {};
    else
        m_chosen = Baseline::ofProvider(choice);
    rebuildNow();
}

void ChartPanel::setReadout(const QString& text, bool pin)
{
    if (m_pinned && !pin)
        return; // a pinned read-out stays until it is unpinned or another click replaces it
    m_pinned = pin && !text.isEmpty();
    m_unpin->setVisible(m_pinned);
    m_readoutText = text;
    // Rich text, so that Qt wraps it: a widened cohort's differences are longer than the screen is wide.
    QString html = text.toHtmlEscaped();
    html.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    m_readout->setToolTip(text.isEmpty() ? QString() : QStringLiteral("<p>") + html + QStringLiteral("</p>"));
    QString line = text.toHtmlEscaped();
    line.replace(QLatin1Char('\n'), QStringLiteral(" · "));
    if (text.isEmpty()) {
        QScatterSeries* marker = chart() ? ChartStyle::currentRunMarker(chart()) : nullptr;
        m_readout->setText((marker ? QStringLiteral("◎ ") + marker->property("runLabel").toString().toHtmlEscaped()
                                       + QStringLiteral(" · ")
                                   : QString())
            + QStringLiteral("<span style=\"color:%1\">Hover a bar, box or point for its exact values; "
                             "click to pin them here.</span>")
                  .arg(palette().color(QPalette::PlaceholderText).name()));
    } else if (m_pinned)
        m_readout->setText(QStringLiteral("<b>Pinned:</b> ") + line); // words: a pin glyph is a blank box in many fonts
    else
        m_readout->setText(line);
}

QString ChartPanel::readoutText() const
{
    return m_readoutText;
}

void ChartPanel::unpinReadout()
{
    m_pinned = false;
    setReadout({}, false);
}

void ChartPanel::setWarningsExpanded(bool expanded)
{
    m_warningsExpanded = expanded;
    updateBanner();
}

void ChartPanel::updateChoosers()
{
    const bool quantiles = m_kind == ChartKind::Quantiles;
    const bool boxes = quantiles && m_info.quantileView == QuantileView::Box; // distributions: always a log axis
    m_log->setVisible(boxes || m_kind == ChartKind::Sweep || m_kind == ChartKind::History);
    static_cast<QuantileViewChooser*>(m_quantileViewBox)
        ->showDrawn(m_info.quantileView, m_info.distributionUnavailable);
    m_quantileViewBox->setVisible(quantiles);
    m_cohortBox->clear();
    for (int i = 0; i < m_info.cohortIds.size(); ++i) {
        m_cohortBox->addItem(m_info.cohorts.value(i), m_info.cohortIds[i]);
        m_cohortBox->setItemData(i, m_info.cohorts.value(i), Qt::ToolTipRole);
    }
    m_cohortBox->setCurrentIndex(m_cohortBox->findData(m_info.cohort));
    m_cohortBox->setToolTip(m_cohortBox->currentText());
    m_cohortBox->setVisible((m_kind == ChartKind::Rank || m_kind == ChartKind::Records) && m_info.cohortIds.size() > 1);
    m_widen->setVisible(m_kind == ChartKind::Rank);
    const bool sweep = m_kind == ChartKind::Sweep || m_kind == ChartKind::History; // history: time or label
    m_x->clear();
    m_x->addItems(m_info.xCandidates);
    m_x->setCurrentText(m_info.xParam);
    m_x->setVisible(sweep && m_info.xCandidates.size() > 1);
    m_xLabel->setVisible(m_x->isVisibleTo(this));

    const bool speedup = m_kind == ChartKind::Speedup;
    const QString current = m_chosen.isRun() ? kCurrentRunBaseline
        : m_chosen.isEmpty()                 ? kDefaultBaseline
                                             : m_chosen.providers.value(0);
    m_baselineBox->clear();
    const Baseline& fallback = m_defaultBaseline;
    m_baselineBox->addItem(
        QStringLiteral("Default (%1)").arg(fallback.isEmpty() ? QStringLiteral("none") : fallback.describe()),
        kDefaultBaseline);
    for (const QString& provider : m_info.providers)
        m_baselineBox->addItem(provider, provider);
    auto describe = [](const Run& run) -> QString {
        return run.provider + QStringLiteral(" · ") + shortGpuName(run.gpuDisplayName()) + QStringLiteral(" · ")
            + run.pass + QStringLiteral(" · ") + run.workloadSlug;
    };
    if (m_chosen.isRun())
        m_baselineBox->addItem(QStringLiteral("Run: ") + describe(*m_chosen.run), kCurrentRunBaseline);
    else if (m_currentRun)
        m_baselineBox->addItem(QStringLiteral("Current run: ") + describe(*m_currentRun), kCurrentRunBaseline);
    for (int i = 0; i < m_baselineBox->count(); ++i)
        m_baselineBox->setItemData(i, m_baselineBox->itemText(i), Qt::ToolTipRole);
    const int index = m_baselineBox->findData(current);
    if (index >= 0)
        m_baselineBox->setCurrentIndex(index);
    else if (!current.isEmpty() && current != kDefaultBaseline) {
        m_baselineBox->addItem(current, current); // a provider not in scope: keep it visible
        m_baselineBox->setCurrentIndex(m_baselineBox->count() - 1);
    }
    m_baselineBox->setVisible(speedup);
    m_baselineLabel->setVisible(speedup);
    if (m_chosen.isRun()) {
        const Run& run = *m_chosen.run;
        m_chip->setText(QStringLiteral("%1: %2 · %3 · %4  ✕")
                            .arg(m_baseline.isRun() ? QStringLiteral("Baseline run")
                                                    : QStringLiteral("Baseline run (not in scope)"),
                                run.provider, shortGpuName(run.gpuDisplayName()), paramsLabel(run, m_chipVarying)));
    }
    m_chip->setVisible(speedup && m_chosen.isRun());
}

void ChartPanel::updateBanner()
{
    QString html = chartBannerHtml(m_info, m_runs.isEmpty(), m_kind == ChartKind::Speedup ? m_fallbackNote : QString(),
        m_warningsExpanded, ChartStyle::isDark(palette()));
    if (m_selected > 0) {
        // A stale selection must not drive the charts silently.
        const QString line = QStringLiteral("<b>Charting the %1 selected runs</b>, not the %2 the filter shows. "
                                            "<a href=\"selection:dismiss\">Chart the filter</a>")
                                 .arg(m_selected)
                                 .arg(m_filtered);
        html = html.isEmpty() ? line : line + QStringLiteral("<br>") + html;
    }
    m_banner->setText(html);
    m_banner->setToolTip((m_info.warnings + m_info.notes).join(QLatin1Char('\n')));
    m_banner->setVisible(!html.isEmpty());
}

QString ChartPanel::bannerText() const
{
    return m_banner->text();
}

void ChartPanel::exportChart()
{
    if (m_kind == ChartKind::Compare) {
        m_compare->exportDialog();
        return;
    }
    if (m_kind == ChartKind::Overview) {
        emit statusMessage(
            QStringLiteral("The overview is a table, not a chart: Copy puts it on the clipboard as text; "
                           "the other tabs export charts."));
        return;
    }
    ChartExportDialog dialog(chartKindName(m_kind), ChartStyle::isDark(palette()), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString error;
    if (!ChartExporter::exportChart(buildChart(dialog.dark()), dialog.path(), dialog.pixelSize(), dialog.dpi(), &error))
        QMessageBox::warning(this, QStringLiteral("Export chart"), error);
    else
        emit statusMessage(QStringLiteral("Chart saved to %1").arg(QDir::toNativeSeparators(dialog.path())));
}

void ChartPanel::copyChart()
{
    if (m_kind == ChartKind::Compare) {
        m_compare->copy(CompareView::Format::Markdown);
        return;
    }
    if (m_kind == ChartKind::Overview) {
        QGuiApplication::clipboard()->setText(m_overview->overviewModel()->toTsv());
        emit statusMessage(QStringLiteral("Overview copied to the clipboard as tab-separated text"));
        return;
    }
    const QSize size = m_view->size().isEmpty() ? QSize(1200, 800) : m_view->size();
    ChartExporter::copyToClipboard(buildChart(ChartStyle::isDark(palette())), size, devicePixelRatioF());
    emit statusMessage(QStringLiteral("Chart copied to the clipboard (%1×%2 px)").arg(size.width()).arg(size.height()));
}

} // namespace kix
