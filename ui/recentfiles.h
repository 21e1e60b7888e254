// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QMenu;
QT_END_NAMESPACE

namespace kix {

// File > Recent: the last paths opened (files or folders), kept in QSettings, newest first.
class RecentFiles : public QObject
{
    Q_OBJECT
public:
    explicit RecentFiles(QMenu* menu, QObject* parent = nullptr);

    void add(const QStringList& paths);
    QStringList paths() const;
    void clear();

    static constexpr int maxEntries = 10;

signals:
    void openRequested(const QString& path);

private:
    void rebuildMenu();

    QMenu* m_menu;
};

} // namespace kix
