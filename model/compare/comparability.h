// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/run.h"

#include <QStringList>

namespace kix {

// What two runs differ in, for a reader who is about to compare them. Warnings name a difference that makes the
// comparison questionable (GPU, workload, pass, dtype, protocol family, kernel, metric); notes state equal digests
// and differences that do not (environment digest on the same GPU model, ...).
struct Comparability
{
    QStringList warnings;
    QStringList notes;
    bool isClean() const { return warnings.isEmpty(); }
};
Comparability assessComparability(const Run& baseline, const Run& run);

} // namespace kix
