// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/run.h"

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace kix {

// File > Export Runs: asks for a file (.json lossless, .jsonl, .csv) and writes the runs with model/runwriter.h.
// A failure is shown in a message box: the user started the action.
class RunExportDialog
{
public:
    // `what` names the runs for the dialog's title ("12 selected runs"). True when the file was written; `written`
    // then receives its path.
    static bool exportRuns(QWidget* parent, const RunList& runs, const QString& what, QString* written = nullptr);
};

} // namespace kix
