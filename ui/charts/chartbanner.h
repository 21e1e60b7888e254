// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "ui/charts/chartoptions.h"

#include <QString>

namespace kix {

// The line(s) above a chart, as rich text: a dropped baseline run's note, the comparability warnings and notes
// folded into one line with a "show all" link (`expanded`: one line each, with a "fold" link), "nothing to draw",
// and when many kernels were in scope which one is charted with filter links for the others ("filter:kernel=x").
QString chartBannerHtml(const ChartInfo& info, bool noRuns, const QString& baselineNote, bool expanded, bool dark);

} // namespace kix
