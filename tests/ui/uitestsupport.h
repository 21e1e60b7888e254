// SPDX-License-Identifier: Apache-2.0
// Fixtures and settings isolation for the explorer's widget tests.
#pragma once

#include "model/read/documentparser.h"
#include "model/run.h"

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace kixtest {

inline QString uiData(const QString& name = QString())
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/ui/") + name;
}

inline kix::RunList loadUi(const QStringList& names)
{
    kix::RunList runs;
    for (const QString& name : names)
        runs += kix::parseFile(uiData(name)).runs;
    return runs;
}

inline kix::RunList sweepRuns()
{
    return loadUi({ QStringLiteral("groupnorm-sweep.json") });
}

inline kix::RunList allRuns()
{
    return loadUi({ QStringLiteral("groupnorm-sweep.json"), QStringLiteral("samples.jsonl"),
        QStringLiteral("cross-gpu.json"), QStringLiteral("liger-mini.csv") });
}

// Keeps QSettings (window layout, recent files, export choices) out of the user's configuration.
inline void isolateSettings(const QTemporaryDir& dir)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("kix-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("kix-tests"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
    QSettings().clear();
}

} // namespace kixtest
