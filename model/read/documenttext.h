// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the Frame stage of the read path, documentparser.h): one file's text, recognised by content
// and suffix and handed to the reader of its format (a kernelindex document or array, JSON Lines, a bundle, YAML, a
// catalog, other tools' formats through the InputFormat hook), which yields its documents to runextract.

#include "model/read/readlimits.h"

#include <QString>

#include <string_view>

#include <sys/stat.h>

namespace kix::parsing {

// One file's text, in memory and not empty: `input` is all of the file's bytes, `text` the same without a UTF-8 BOM.
// `padded`: simdjson::SIMDJSON_PADDING readable bytes follow it (the loader's own read buffer). `onDisk`: the file's
// status when its bytes were read from disk (all of `input`, as it was when opened): a file that is one run's
// document is then not kept in memory but read back when asked.
void parseText(std::string_view input, std::string_view text, bool padded, const QString& file,
    const ParseLimits& limits, ParseResult& result, const struct stat* onDisk = nullptr);

// Whether a file's first bytes are read as kernelindex JSON Lines: an object first, no binary data, not a catalog
// export, and no other format claims them. The Source stage streams such a file in windows of lines (jsonlstream.h);
// anything else is read whole, by the reader that knows it.
bool streamsAsJsonLines(const char* begin, const char* end);

} // namespace kix::parsing
