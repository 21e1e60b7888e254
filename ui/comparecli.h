#pragma once

#include <QStringList>
#include <QTextStream>

namespace kix {

// kix compare PATH... [--filter TEXT] [--baseline PROVIDER] [--format table|csv|json] [--alpha A]
// Each run against its baseline: both medians, the ratio, the verdict and the warnings; the geometric mean per
// provider. Exit 0 ok, 1 failure (a file refused, nothing to compare, an unknown baseline), 2 usage.
int compareCommand(const QStringList& args, QTextStream& out, QTextStream& err);

} // namespace kix
