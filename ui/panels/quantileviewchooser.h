// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/distributiondata.h"

#include <QComboBox>

namespace kix {

// The Quantiles view's "Box | Histogram | ECDF" chooser. The user's choice is remembered across sessions
// (QSettings) and kept while the runs in scope cannot show it: then the chooser shows the view drawn (the boxes),
// is disabled, and its tooltip says why (DistributionData::unavailable), until the runs allow the choice again.
class QuantileViewChooser : public QComboBox
{
public:
    explicit QuantileViewChooser(QWidget* parent = nullptr);

    QuantileView choice() const { return m_choice; }
    // After each build: `drawn` is the view the chart shows; `unavailable` why Histogram and ECDF cannot be drawn,
    // empty when they can.
    void showDrawn(QuantileView drawn, const QString& unavailable);

private:
    QuantileView m_choice = QuantileView::Box;
};

} // namespace kix
