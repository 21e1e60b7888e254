// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the Source stage of the read path, documentparser.h): a file read whole, with plain POSIX
// reads relative to its folder (FolderHandle), or bytes already in memory, and the checks of those bytes before
// any format is asked: the size limit, a BOM, a Zstandard stream (decompressed as it is read: zstdstream.h), an
// empty file, another compression or binary data. The text goes on to the Frame stage (textsink.h).

#include "model/read/readlimits.h"
#include "model/read/textsink.h"

#include <QString>

#include <string_view>

#include <sys/stat.h>

namespace kix::parsing {

// The bytes start as a compression kix does not read (gzip, xz, bzip2), by their magic bytes.
bool isOtherCompression(const char* begin, const char* end);

// Bytes already in memory, checked and handed on to `frame` (Zstandard data decompressed first). `padded`:
// simdjson::SIMDJSON_PADDING readable bytes follow `input`.
void parseWhole(std::string_view input, bool padded, const QString& file, const ParseLimits& limits,
    ParseResult& result, TextSink& frame);

// The file at `path` (a Qt resource through QFile): a .zst file decompressed as it is read, any other read whole
// (refused without reading it when larger than limits.maxFileBytes) and handed on as parseWhole does. A file
// that is one run's document is then not kept in memory but read back when asked.
void parseWholeFile(const QString& path, const ParseLimits& limits, ParseResult& result, TextSink& frame);

} // namespace kix::parsing
