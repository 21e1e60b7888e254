// SPDX-License-Identifier: Apache-2.0
#include "ui/display.h"

#include <QByteArray>
#include <QtGlobal>

namespace kix {

bool hasDisplay()
{
#if defined(Q_OS_WIN) || defined(Q_OS_MACOS)
    return true;
#else
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    if (platform.startsWith("offscreen") || platform.startsWith("minimal"))
        return false;
    if (platform.startsWith("eglfs") || platform.startsWith("linuxfb") || platform.startsWith("vnc"))
        return true;
    if (platform.startsWith("wayland"))
        return !qgetenv("WAYLAND_DISPLAY").isEmpty();
    if (platform.startsWith("xcb"))
        return !qgetenv("DISPLAY").isEmpty();
    return !qgetenv("DISPLAY").isEmpty() || !qgetenv("WAYLAND_DISPLAY").isEmpty();
#endif
}

} // namespace kix
