// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the Source stage of the read path, documentparser.h: the JSON Lines stream): a large JSON
// Lines file that cannot be mapped (jsonlmapped.h), read a window at a time with read(). Each window of whole lines
// goes on to the Frame stage (textsink.h) with its place in the file.

#include "model/read/readlimits.h"
#include "model/read/textsink.h"

#include <QString>

#include <memory>

namespace kix::jsonl {

// One batch of windows is parsed on the pool while the next is read; buffers are used again, not given back. False
// when the first window is not one to stream (nothing is read into `result` then). `error`: why a read failed part
// way (what was read before it is parsed).
bool streamRead(int fd, const QString& path, const std::shared_ptr<const RawSource>& shared, qint64 window,
    const ParseLimits& limits, ParseResult& result, const parsing::TextSink& frame, QString& error);

} // namespace kix::jsonl
