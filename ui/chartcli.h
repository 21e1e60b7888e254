#pragma once

#include <QStringList>
#include <QTextStream>

namespace kix {

// kix chart PATH... --kind quantiles|sweep|speedup [--filter TEXT] [--baseline PROVIDER] [--x PARAM] [--log]
//           [--size WxH] [--dpi N] [--dark] --out FILE.png|svg|pdf
// Draws the same chart as the window from the same functions. Needs a QApplication (the offscreen platform works
// without a display). Warnings and notes go to `err`. Exit 0 ok, 1 failure (incl. files refused), 2 usage.
int chartCommand(const QStringList& args, QTextStream& out, QTextStream& err);

} // namespace kix
