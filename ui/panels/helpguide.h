// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

QT_BEGIN_NAMESPACE
class QMenuBar;
class QWidget;
QT_END_NAMESPACE

namespace kix {

// Help > Guide: how to answer "how much faster is A than B for this kernel", the filter grammar, and every
// keyboard shortcut, read from the menus themselves so the list cannot go stale.
QString helpGuideHtml(const QMenuBar* menus);
void showHelpGuide(QWidget* parent, const QMenuBar* menus);

} // namespace kix
