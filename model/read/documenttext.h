// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the document parser): one file's text, recognised by content and suffix and handed to the
// reader of its format (a kernelindex document or array, JSON Lines, a bundle, YAML, a catalog, other tools' JSON).

#include "model/read/readlimits.h"

#include <QString>

#include <string_view>

#include <sys/stat.h>

namespace kix::parsing {

// A file named .zst that starts as another compression does (then it gets that compression's hint).
bool startsAsOtherCompression(const QString& path);

// One file's text. `padded`: simdjson::SIMDJSON_PADDING readable bytes follow it (the loader's own read buffer).
// `onDisk`: the file's status when its bytes were read from disk (all of `input`, as it was when opened): a file
// that is one run's document is then not kept in memory but read back when asked.
void parseText(std::string_view input, bool padded, const QString& file, const ParseLimits& limits, ParseResult& result,
    const struct stat* onDisk = nullptr);

} // namespace kix::parsing
