// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/helpguide.h"

#include "model/filter/runfilter.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QMenu>
#include <QMenuBar>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace kix {

namespace {

void collectShortcuts(const QList<QAction*>& actions, const QString& path, QStringList& rows)
{
    for (QAction* action : actions) {
        QString text = action->text();
        text.remove(QLatin1Char('&'));
        if (QMenu* menu = action->menu()) {
            collectShortcuts(menu->actions(), path + text + QStringLiteral(" › "), rows);
            continue;
        }
        if (action->isSeparator() || action->shortcut().isEmpty())
            continue;
        rows << QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(action->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                        QString(path + text).toHtmlEscaped());
    }
}

} // namespace

QString helpGuideHtml(const QMenuBar* menus)
{
    QString html = QStringLiteral(
        "<h3>Comparing providers</h3>"
        "<ol><li>Open runs (File › Open, or drop files: kernelindex JSON, JSON Lines, Liger's benchmark CSV).</li>"
        "<li>Type a filter, e.g. <code>group_norm backward gpu:b200</code>, or click facets on the left.</li>"
        "<li>The <b>Speed-up</b> tab compares every run with its baseline provider (huggingface or torch by "
        "default): bars read <i>baseline median / run median</i>, above 1× the run is faster. The marker at a "
        "bar's end is the verdict: ▲ faster, ◆ slower, ● same, □ ambiguous. The table below leads with the "
        "speed-up and the verdict, and says why.</li>"
        "<li>Hover a bar, box or point for its exact values; click to pin them above the chart.</li>"
        "<li>To compare with one run instead, make it current in the table and pick <i>Current run</i> as the "
        "baseline; the chip beside the chooser removes it.</li></ol>"
        "<p>Colour always means provider. A run whose p20–p80 spread exceeds 10% of its median is marked "
        "<i>noisy</i>. Runs of more than two kernels are charted one kernel at a time.</p>"
        "<h3>Filter</h3><pre style=\"white-space: pre-wrap\">");
    html += filterGrammarHelp().toHtmlEscaped();
    html += QStringLiteral("</pre><h3>Keyboard shortcuts</h3><table cellspacing=\"4\">");
    QStringList rows;
    if (menus)
        collectShortcuts(menus->actions(), QString(), rows);
    html += rows.join(QString()) + QStringLiteral("</table>");
    return html;
}

void showHelpGuide(QWidget* parent, const QMenuBar* menus)
{
    auto* dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("helpGuide"));
    dialog->setWindowTitle(QStringLiteral("kix guide"));
    auto* text = new QTextBrowser(dialog);
    text->setHtml(helpGuideHtml(menus));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog->resize(720, 560);
    dialog->show(); // non-modal: the guide stays open beside the window
}

} // namespace kix
