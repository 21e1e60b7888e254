// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the Source stage of the read path, documentparser.h): a file read whole, with plain POSIX
// reads relative to its folder (FolderHandle), or bytes already in memory, and the checks of those bytes before
// any format is asked: the size limit, a BOM, a Zstandard stream (decompressed as it is read: zstdstream.h), an
// empty file, another compression or binary data. The text goes on to the Frame stage (documenttext.h).

#include "model/read/readlimits.h"

#include <QString>

#include <string_view>

#include <sys/stat.h>

namespace kix::parsing {

// The bytes start as a compression kix does not read (gzip, xz, bzip2), by their magic bytes.
bool isOtherCompression(const char* begin, const char* end);

// One file's bytes, whole in memory. `padded`: simdjson::SIMDJSON_PADDING readable bytes follow `input` (the
// loader's own read buffer). `onDisk`: the file's status when its bytes were read from disk (all of `input`, as it
// was when opened): a file that is one run's document is then not kept in memory but read back when asked.
void parseWhole(std::string_view input, bool padded, const QString& file, const ParseLimits& limits,
    ParseResult& result, const struct stat* onDisk = nullptr);

// The file at `path` read whole (a Qt resource through QFile), refused without reading it when it is larger than
// limits.maxFileBytes, then as parseWhole.
void parseWholeFile(const QString& path, const ParseLimits& limits, ParseResult& result);

} // namespace kix::parsing
