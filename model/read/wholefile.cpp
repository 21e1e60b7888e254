// SPDX-License-Identifier: Apache-2.0
#include "model/read/wholefile.h"

#include "model/read/textsink.h"
#include "model/read/zstdstream.h"

#include <QFile>

#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kix::parsing {

namespace {

// Compressions kix does not read, by their magic bytes: the hint names the tool that opens them.
struct Compression
{
    std::string_view magic;
    const char* name;
    const char* command;
};
const Compression kCompressions[]
    = { { "\x1F\x8B", "gzip", "gunzip" }, { "\xFD\x37\x7A\x58\x5A\x00", "xz", "unxz" }, { "BZh", "bzip2", "bunzip2" } };

// The compression kix does not read that the bytes start with, else null.
const Compression* compressionOf(const char* begin, const char* end)
{
    const std::string_view head(begin, static_cast<size_t>(std::min<qint64>(end - begin, 8)));
    for (const Compression& c : kCompressions) {
        if (head.substr(0, c.magic.size()) == c.magic)
            return &c;
    }
    return nullptr;
}

QString notRegularFile(mode_t mode)
{
    const char* kind = S_ISFIFO(mode)    ? "a FIFO"
        : S_ISSOCK(mode)                 ? "a socket"
        : S_ISCHR(mode) || S_ISBLK(mode) ? "a device"
        : S_ISDIR(mode)                  ? "a folder"
                                         : "not a plain file";
    return QStringLiteral("not a regular file (%1)").arg(QLatin1String(kind));
}

// Plain POSIX reads for files on disk into the thread's buffer, with simdjson's padding after the text: the
// loader opens tens of thousands of small files, and QFile's extra stat calls per file cost more than the read.
// `status`: the file's, when it was opened (st_size 0 if it is not known). `folder`: opens it, where given.
bool readPosix(const QString& path, qint64 maxBytes, std::string& bytes, std::size_t& size, QString& error,
    bool& tooLarge, struct stat& status, FolderHandle* folder)
{
    const QByteArray name = QFile::encodeName(path);
    // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below); no effect on regular files
    constexpr int kFlags = O_RDONLY | O_CLOEXEC | O_NONBLOCK;
    const int fd = folder ? folder->open(name, kFlags) : ::open(name.constData(), kFlags);
    if (fd < 0) {
        error = QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    size = 0;
    tooLarge = false;
    status = {};
    if (::fstat(fd, &status) == 0) {
        if (!S_ISREG(status.st_mode)) {
            error = notRegularFile(status.st_mode);
            ::close(fd);
            return false;
        }
        if (status.st_size > maxBytes) { // refused without reading it
            tooLarge = true;
            ::close(fd);
            return true;
        }
    }
    constexpr std::size_t kPad = simdjson::SIMDJSON_PADDING;
    if (bytes.size() < 16384 + kPad)
        bytes.resize(16384 + kPad);
    // as many bytes as fstat said: no second read() to find the end (one system call a file saved); a file that
    // grows while it is read is read as it was when opened
    const std::size_t expected = status.st_size > 0 ? std::size_t(status.st_size) : 0;
    while (true) {
        if (size + kPad == bytes.size()) {
            if (static_cast<qint64>(size) > maxBytes) {
                tooLarge = true;
                break;
            }
            // past the buffer, size it from the file (it may have grown since fstat) rather than doubling it
            struct stat info
            {
            };
            const std::size_t want = ::fstat(fd, &info) == 0 && std::size_t(info.st_size) >= size
                ? std::size_t(info.st_size) + 1
                : size * 2;
            bytes.resize(std::min<std::size_t>(want, std::size_t(maxBytes) + 1) + kPad);
        }
        const ssize_t n = ::read(fd, bytes.data() + size, bytes.size() - kPad - size);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            error = QString::fromLocal8Bit(std::strerror(errno));
            ::close(fd);
            return false;
        }
        if (n == 0)
            break;
        size += std::size_t(n);
        if (size == expected)
            break;
    }
    ::close(fd);
    tooLarge = tooLarge || static_cast<qint64>(size) > maxBytes;
    std::memset(bytes.data() + size, 0, kPad); // the padding holds nothing of an earlier, longer file
    return true;
}

} // namespace

bool isOtherCompression(const char* begin, const char* end)
{
    return compressionOf(begin, end) != nullptr;
}

namespace {

// The checks of a file's bytes before any format is asked. A text is handed on to `frame`; the bytes after a BOM
// are returned when they are a Zstandard stream, for the caller to decompress; anything else is refused, and said.
std::string_view handOn(std::string_view input, bool padded, const QString& file, const ParseLimits& limits,
    ParseResult& result, TextSink& frame, const struct stat* onDisk)
{
    if (static_cast<qint64>(input.size()) > limits.maxFileBytes) {
        result.diagnostics.append(makeError(file, {},
            QStringLiteral("the file is %1 bytes, more than the limit of %2")
                .arg(input.size())
                .arg(limits.maxFileBytes)));
        return {};
    }
    const char* begin = input.data();
    const char* end = begin + input.size();
    if (input.substr(0, 3) == "\xEF\xBB\xBF")
        begin += 3;
    if (isZstdFrame(begin, end))
        return std::string_view(begin, static_cast<size_t>(end - begin));
    if (isBlank(begin, end)) {
        result.diagnostics.append(makeError(file, {}, QStringLiteral("the file is empty")));
        return {};
    }
    // A compressed file kix does not read says which tool opens it (Zstandard, the catalog's compression, is read).
    if (const Compression* c = compressionOf(begin, end)) {
        result.diagnostics.append(makeError(file, {},
            QStringLiteral("a %1-compressed file: kix reads plain and Zstandard-compressed files; decompress it first "
                           "(%2 FILE) and open the result")
                .arg(QLatin1String(c->name), QLatin1String(c->command))));
        return {};
    }
    if (memchr(begin, 0, static_cast<size_t>(std::min<qint64>(end - begin, 4096)))) {
        result.diagnostics.append(makeError(file, {}, QStringLiteral("not JSON: the file holds binary data")));
        return {};
    }
    frame.whole(file, input, std::string_view(begin, static_cast<size_t>(end - begin)), padded, onDisk);
    return {};
}

// A file named .zst that does not start as another compression does (that one is read whole, to be named): it is
// decompressed as it is read, never whole in memory.
bool streamsAsZstd(const QString& path)
{
    if (!hasSuffix(path, QLatin1String("zst")))
        return false;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return true; // the stream names the problem
    const QByteArray head = f.read(8);
    return !isOtherCompression(head.constData(), head.constData() + head.size());
}

// A Qt resource's bytes, read whole; false when it cannot be (said in `result`).
bool readResource(const QString& path, const ParseLimits& limits, ParseResult& result, QByteArray& bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        result.diagnostics.append(makeError(path, {}, QStringLiteral("cannot open: ") + f.errorString()));
        return false;
    }
    if (f.size() > limits.maxFileBytes) {
        result.diagnostics.append(makeError(
            path, {}, QStringLiteral("the file is larger than the limit of %1 bytes").arg(limits.maxFileBytes)));
        return false;
    }
    bytes = f.readAll();
    return true;
}

// A file on disk read whole into `buffer` (padded); false when it cannot be (said in `result`).
bool readFromDisk(const QString& path, const ParseLimits& limits, ParseResult& result, std::string& buffer,
    std::string_view& bytes, struct stat& status)
{
    std::size_t size = 0;
    QString error;
    bool tooLarge = false;
    if (!readPosix(path, limits.maxFileBytes, buffer, size, error, tooLarge, status, limits.folder)) {
        result.diagnostics.append(makeError(path, {}, QStringLiteral("cannot read: ") + error));
        return false;
    }
    if (tooLarge) {
        result.diagnostics.append(makeError(
            path, {}, QStringLiteral("the file is larger than the limit of %1 bytes").arg(limits.maxFileBytes)));
        return false;
    }
    bytes = std::string_view(buffer.data(), size);
    return true;
}

} // namespace

void parseWhole(std::string_view input, bool padded, const QString& file, const ParseLimits& limits,
    ParseResult& result, TextSink& frame)
{
    const std::string_view compressed = handOn(input, padded, file, limits, result, frame, nullptr);
    if (!compressed.empty())
        parseZstd(file, &compressed, limits, result, frame);
}

void parseWholeFile(const QString& path, const ParseLimits& limits, ParseResult& result, TextSink& frame)
{
    thread_local std::string buffer;
    const bool onDisk = !path.startsWith(QLatin1Char(':')); // else a Qt resource
    const bool streamed = onDisk && streamsAsZstd(path);
    std::string_view compressed;
    QByteArray resource;
    if (!streamed) {
        std::string_view bytes;
        struct stat status
        {
        };
        if (onDisk ? !readFromDisk(path, limits, result, buffer, bytes, status)
                   : !readResource(path, limits, result, resource))
            return;
        if (!onDisk)
            bytes = std::string_view(resource.constData(), static_cast<size_t>(resource.size()));
        // the thread's buffer is padded; a resource's bytes are not
        compressed
            = handOn(bytes, onDisk, path, limits, result, frame, onDisk && status.st_size > 0 ? &status : nullptr);
    }
    if (streamed || !compressed.empty())
        parseZstd(path, streamed ? nullptr : &compressed, limits, result, frame);
    if (buffer.size() > (std::size_t(64) << 20))
        std::string().swap(buffer); // one big file read: give the memory back rather than keep it
}

} // namespace kix::parsing

namespace kix {

FolderHandle::~FolderHandle()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

int FolderHandle::open(const QByteArray& path, int flags)
{
    const qsizetype slash = path.lastIndexOf('/');
    if (slash <= 0 || slash + 1 == path.size())
        return ::open(path.constData(), flags);
    const QByteArrayView folder(path.constData(), slash);
    if (folder != m_folder) {
        if (m_fd >= 0)
            ::close(m_fd);
        m_folder = folder.toByteArray();
        m_fd = ::open(m_folder.constData(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    }
    if (m_fd < 0) // the folder cannot be opened: the file's own open names the problem
        return ::open(path.constData(), flags);
    return ::openat(m_fd, path.constData() + slash + 1, flags);
}

} // namespace kix
