// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace kix {

// Whether a window can be shown: false on Linux without DISPLAY or WAYLAND_DISPLAY, or when QT_QPA_PLATFORM asks
// for the offscreen or minimal platform. Call before creating the application object.
bool hasDisplay();

} // namespace kix
