// SPDX-License-Identifier: Apache-2.0
#include "model/read/zstdstream.h"

#include "model/read/readlimits.h"
#include "model/read/textsink.h"

#include <QFile>

#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kix {

ZstdLimits zstdLimits(const ParseLimits& limits)
{
    ZstdLimits z;
    z.maxDecompressedBytes = limits.maxDecompressedBytes;
    z.maxRatio = limits.maxDecompressionRatio;
    return z;
}

bool isZstdFrame(const char* begin, const char* end)
{
    return end - begin >= 4 && std::memcmp(begin, "\x28\xB5\x2F\xFD", 4) == 0;
}

namespace {

struct DStreamDeleter
{
    void operator()(ZSTD_DStream* s) const { ZSTD_freeDStream(s); }
};

// Decompresses what `read` supplies (it fills a buffer and returns the bytes read, 0 at the end, -1 on error).
class Decompressor
{
public:
    Decompressor(const ZstdLimits& limits, const ZstdSink& sink)
        : m_limits(limits)
        , m_sink(sink)
        , m_stream(ZSTD_createDStream())
        , m_out(ZSTD_DStreamOutSize())
    {
        if (m_stream) {
            ZSTD_initDStream(m_stream.get());
            // A frame may ask for a window of up to 2^31 bytes; the library's default cap (2^27, 128 MiB) is
            // what a decoder of untrusted input should keep.
            ZSTD_DCtx_setParameter(m_stream.get(), ZSTD_d_windowLogMax, 27);
        }
    }

    // Feeds one block of compressed bytes; false when decompression ended here (error, limit or stop).
    bool feed(const char* data, std::size_t size, ZstdResult& result)
    {
        if (!m_stream) {
            result.error = QStringLiteral("the Zstandard decoder could not be created");
            return false;
        }
        m_compressed += qint64(size);
        ZSTD_inBuffer in { data, size, 0 };
        while (in.pos < in.size) {
            ZSTD_outBuffer out { m_out.data(), m_out.size(), 0 };
            const std::size_t rc = ZSTD_decompressStream(m_stream.get(), &out, &in);
            if (ZSTD_isError(rc)) {
                result.error = QStringLiteral("not valid Zstandard data: ") + QLatin1String(ZSTD_getErrorName(rc));
                return false;
            }
            m_inFrame = rc != 0;
            if (out.pos == 0)
                continue;
            result.decompressedBytes += qint64(out.pos);
            if (result.decompressedBytes > m_limits.maxDecompressedBytes) {
                result.error = QStringLiteral("decompresses to more than the limit of %1 bytes: refused as a "
                                              "decompression bomb")
                                   .arg(m_limits.maxDecompressedBytes);
                return false;
            }
            if (result.decompressedBytes > m_limits.ratioFrom
                && result.decompressedBytes > m_limits.maxRatio * m_compressed) {
                result.error = QStringLiteral("decompresses more than %1 times its compressed size (%2 bytes from "
                                              "%3): refused as a decompression bomb")
                                   .arg(m_limits.maxRatio)
                                   .arg(result.decompressedBytes)
                                   .arg(m_compressed);
                return false;
            }
            if (!m_sink(std::string_view(m_out.data(), out.pos))) {
                result.stopped = true;
                return false;
            }
        }
        return true;
    }

    // At the end of the input: a frame left open is a cut file.
    bool finish(ZstdResult& result)
    {
        if (m_compressed == 0) {
            result.error = QStringLiteral("the file is empty");
            return false;
        }
        if (m_inFrame) {
            result.error = QStringLiteral("the Zstandard data ends inside a frame (the file is cut)");
            return false;
        }
        result.ok = true;
        return true;
    }

private:
    const ZstdLimits& m_limits;
    const ZstdSink& m_sink;
    std::unique_ptr<ZSTD_DStream, DStreamDeleter> m_stream;
    std::vector<char> m_out;
    qint64 m_compressed = 0;
    bool m_inFrame = false;
};

} // namespace

ZstdResult decompressZstdBytes(std::string_view compressed, const ZstdLimits& limits, const ZstdSink& sink)
{
    ZstdResult result;
    Decompressor d(limits, sink);
    // in blocks, so that the ratio is checked as it goes
    const std::size_t block = ZSTD_DStreamInSize();
    for (std::size_t at = 0; at < compressed.size(); at += block) {
        if (!d.feed(compressed.data() + at, std::min(block, compressed.size() - at), result))
            return result;
    }
    d.finish(result);
    return result;
}

ZstdResult decompressZstdFile(
    const QString& path, const ZstdLimits& limits, const ZstdSink& sink, const ZstdProgress& progress)
{
    ZstdResult result;
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        result.error = QStringLiteral("cannot read: ") + QString::fromLocal8Bit(std::strerror(errno));
        return result;
    }
    struct stat info
    {
    };
    qint64 total = 0;
    if (::fstat(fd, &info) == 0) {
        if (!S_ISREG(info.st_mode)) {
            ::close(fd);
            result.error = QStringLiteral("cannot read: not a regular file");
            return result;
        }
        total = qint64(info.st_size);
    }
    Decompressor d(limits, sink);
    std::vector<char> in(ZSTD_DStreamInSize());
    qint64 done = 0;
    while (true) {
        const ssize_t n = ::read(fd, in.data(), in.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            result.error = QStringLiteral("cannot read: ") + QString::fromLocal8Bit(std::strerror(errno));
            ::close(fd);
            return result;
        }
        if (n == 0)
            break;
        done += n;
        if (!d.feed(in.data(), std::size_t(n), result)) {
            ::close(fd);
            return result;
        }
        if (progress)
            progress(done, std::max(done, total));
    }
    ::close(fd);
    d.finish(result);
    return result;
}

namespace {

// The decompressed text goes on to the Frame stage as it comes; what stopped the decompression is reported after
// the lines read before it.
void readDecompressed(const QString& file, ParseResult& result, parsing::TextSink& frame,
    const std::function<ZstdResult(const ZstdSink&)>& decompress)
{
    const ZstdResult z = decompress([&](std::string_view piece) { return frame.piece(file, piece); });
    if (z.stopped)
        return; // cancelled: the loader drops the result
    if (!z.ok) {
        result.diagnostics.append(makeError(file, {}, z.error));
        if (z.decompressedBytes == 0)
            return;
    }
    frame.endOfPieces(file);
}

} // namespace

void parseZstd(const QString& file, const std::string_view* compressed, const ParseLimits& limits, ParseResult& result,
    parsing::TextSink& frame)
{
    readDecompressed(file, result, frame, [&](const ZstdSink& sink) {
        return compressed ? decompressZstdBytes(*compressed, zstdLimits(limits), sink)
                          : decompressZstdFile(file, zstdLimits(limits), sink, limits.fileProgress);
    });
}

} // namespace kix
