// SPDX-License-Identifier: Apache-2.0
#include "ui/recentfiles.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace kix {

namespace {

const QString kKey = QStringLiteral("files/recent");

} // namespace

RecentFiles::RecentFiles(QMenu* menu, QObject* parent)
    : QObject(parent)
    , m_menu(menu)
{
    rebuildMenu();
}

QStringList RecentFiles::paths() const
{
    return QSettings().value(kKey).toStringList();
}

void RecentFiles::add(const QStringList& paths)
{
    QStringList list = this->paths();
    for (const QString& path : paths) {
        const QString absolute = QFileInfo(path).absoluteFilePath();
        list.removeAll(absolute);
        list.prepend(absolute);
    }
    while (list.size() > maxEntries)
        list.removeLast();
    QSettings().setValue(kKey, list);
    rebuildMenu();
}

void RecentFiles::clear()
{
    QSettings().remove(kKey);
    rebuildMenu();
}

void RecentFiles::rebuildMenu()
{
    m_menu->clear();
    const QStringList list = paths();
    for (int i = 0; i < list.size(); ++i) {
        const QString path = list[i];
        QAction* action
            = m_menu->addAction(QStringLiteral("&%1 %2").arg((i + 1) % 10).arg(QDir::toNativeSeparators(path)));
        action->setEnabled(QFileInfo::exists(path));
        connect(action, &QAction::triggered, this, [this, path] { emit openRequested(path); });
    }
    if (!list.isEmpty())
        m_menu->addSeparator();
    QAction* clearAction = m_menu->addAction(QStringLiteral("Clear Recent"));
    clearAction->setEnabled(!list.isEmpty());
    connect(clearAction, &QAction::triggered, this, &RecentFiles::clear);
}

} // namespace kix
