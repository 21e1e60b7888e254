// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the Source stage of the read path, documentparser.h: the JSON Lines stream): a large JSON
// Lines file read through a mapping of it, and what the mapped and the read() paths share. Each window of whole
// lines goes on to the Frame stage (textsink.h) with its place in the file.

#include "model/read/mappedfile.h"
#include "model/read/readlimits.h"
#include "model/read/textsink.h"

#include <QString>

#include <simdjson.h>

#include <cstddef>
#include <memory>

namespace kix::jsonl {

constexpr std::size_t kPad = simdjson::SIMDJSON_PADDING;

int countNewlines(const char* from, const char* to);

enum class Mapped { NotStreamable, Streamed };

// The file mapped (no copy into a buffer: read() copying every byte was a tenth of the loader's time): its windows
// are parsed as the read ones are, the pages of those parsed given back to the page cache, so that the process
// holds a few windows of the file at a time, as with read().
Mapped streamMapped(const MappedFile& file, int fd, const QString& path, const std::shared_ptr<const RawSource>& shared,
    const ParseLimits& limits, ParseResult& result, const parsing::TextSink& frame);

} // namespace kix::jsonl
