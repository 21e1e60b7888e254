// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model: reading a run's text back from its file (RawSource and RawText, declared in model/run.h,
// are implemented in rawtext.cpp).

#include "model/run.h"

#include <QString>

struct stat;

namespace kix::rawtext {

// The file at `path` as `info` (its stat) identifies it: device, inode, size, modification and change times. The
// loaders describe the files they read with it, and changedSince() compares with it.
RawSource sourceOfFile(const QString& path, const struct ::stat& info);

// The file, opened, is the one the text was read from: same inode, size, modification and change times. Empty when
// it is, else why not.
QString changedSince(int fd, const RawSource& source);

} // namespace kix::rawtext
