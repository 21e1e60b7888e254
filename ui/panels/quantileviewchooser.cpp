// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/quantileviewchooser.h"

#include <QSettings>
#include <QStandardItemModel>

namespace kix {

namespace {

const QString kSettingsKey = QStringLiteral("charts/quantileView");

} // namespace

QuantileViewChooser::QuantileViewChooser(QWidget* parent)
    : QComboBox(parent)
{
    setObjectName(QStringLiteral("quantileView"));
    setAccessibleName(QStringLiteral("Quantiles view"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (QuantileView view : { QuantileView::Box, QuantileView::Histogram, QuantileView::Ecdf })
        addItem(quantileViewTitle(view), int(view));
    setItemData(0, QStringLiteral("One box per run: p20–p80, median, min–max"), Qt::ToolTipRole);
    setItemData(
        1, QStringLiteral("2 to 4 runs' raw samples as overlaid histograms on a log time axis"), Qt::ToolTipRole);
    setItemData(2, QStringLiteral("2 to 4 runs' raw samples as overlaid ECDFs on a log time axis"), Qt::ToolTipRole);
    m_choice = quantileViewFromName(QSettings().value(kSettingsKey).toString()).value_or(QuantileView::Box);
    setCurrentIndex(int(m_choice));
    connect(this, &QComboBox::activated, this, [this](int index) {
        m_choice = QuantileView(itemData(index).toInt());
        QSettings().setValue(kSettingsKey, quantileViewName(m_choice));
    });
}

void QuantileViewChooser::showDrawn(QuantileView drawn, const QString& unavailable)
{
    const bool available = unavailable.isEmpty();
    if (auto* items = qobject_cast<QStandardItemModel*>(model())) {
        for (QuantileView view : { QuantileView::Histogram, QuantileView::Ecdf })
            items->item(int(view))->setEnabled(available);
    }
    setCurrentIndex(int(drawn));
    setEnabled(available);
    QString tip;
    if (available)
        tip = QStringLiteral("Box, or the runs' raw samples overlaid as histograms or ECDFs with the Mann–Whitney "
                             "verdict of each against the first");
    else if (m_choice != QuantileView::Box)
        tip = QStringLiteral("%1 is chosen; boxes are drawn until the runs allow it. %2")
                  .arg(quantileViewTitle(m_choice), unavailable);
    else
        tip = unavailable;
    setToolTip(QStringLiteral("<p>") + tip.toHtmlEscaped() + QStringLiteral("</p>")); // rich text: Qt wraps it
}

} // namespace kix
