// SPDX-License-Identifier: Apache-2.0
#pragma once
// Zstandard input, streamed: the compressed bytes are read a block at a time and decompressed into a bounded
// buffer that is handed on (ZSTD_decompressStream), so a compressed export is never whole in memory once
// decompressed. A decompression bomb is refused: past a cap on the decompressed bytes of one file, or past a
// ratio of decompressed to compressed bytes. Part of the Source stage of the read path (documentparser.h): the
// decompressed text goes on to the Frame stage (textsink.h).

#include <QString>

#include <cstddef>
#include <functional>
#include <string_view>

namespace kix {

// The four bytes every Zstandard frame starts with (28 B5 2F FD).
bool isZstdFrame(const char* begin, const char* end);

struct ZstdLimits
{
    qint64 maxDecompressedBytes = qint64(1) << 30; // per file
    qint64 maxRatio = 200; // decompressed bytes per compressed byte ...
    qint64 ratioFrom = qint64(16) << 20; // ... checked once this much is decompressed
};

struct ParseLimits;
struct ParseResult;
namespace parsing {
class TextSink;
}
// The limits of a read (ParseLimits) that apply to decompression.
ZstdLimits zstdLimits(const ParseLimits& limits);

// Receives each piece of decompressed text, in order; returning false stops the stream (cancel).
using ZstdSink = std::function<bool(std::string_view piece)>;
// Called after each compressed block read: (compressed bytes consumed, compressed bytes in all).
using ZstdProgress = std::function<void(qint64 done, qint64 total)>;

struct ZstdResult
{
    bool ok = false;
    bool stopped = false; // the sink asked to stop
    QString error; // for a person, when !ok && !stopped
    qint64 decompressedBytes = 0;
};

// Decompresses the file at `path` (one or more frames) into `sink`.
ZstdResult decompressZstdFile(
    const QString& path, const ZstdLimits& limits, const ZstdSink& sink, const ZstdProgress& progress = {});

// The same for compressed bytes already in memory.
ZstdResult decompressZstdBytes(std::string_view compressed, const ZstdLimits& limits, const ZstdSink& sink);

// Zstandard-compressed input (a catalog export or kernelindex JSON Lines), decompressed and handed on to the Frame
// stage as it goes: the bytes `compressed` of `file` where given, else the file at `file`, streamed from disk.
void parseZstd(const QString& file, const std::string_view* compressed, const ParseLimits& limits, ParseResult& result,
    parsing::TextSink& frame);

} // namespace kix
