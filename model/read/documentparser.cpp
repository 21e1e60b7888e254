// SPDX-License-Identifier: Apache-2.0
#include "model/read/documentparser.h"

#include "model/read/catalogreader.h"
#include "model/read/documentlines.h"
#include "model/read/documenttext.h"
#include "model/read/jsonlstream.h"

#include <QFile>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kix {

using namespace parsing;

bool ParseResult::hasErrors() const
{
    for (const Diagnostic& d : diagnostics) {
        if (d.isError())
            return true;
    }
    return false;
}

namespace {

// Whether the path's suffix is `suffix`, in any case (no QString made: asked of every file the loader reads).
bool hasSuffix(const QString& path, QLatin1String suffix)
{
    const qsizetype dot = path.lastIndexOf(QLatin1Char('.'));
    return dot >= 0 && path.size() - dot - 1 == suffix.size()
        && QStringView(path).mid(dot + 1).compare(suffix, Qt::CaseInsensitive) == 0;
}

} // namespace

ParseResult parseBytes(const QByteArray& input, const QString& file, const ParseLimits& limits)
{
    ParseResult result;
    parseText(std::string_view(input.constData(), static_cast<size_t>(input.size())), false, file, limits, result);
    return result;
}

namespace {

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

void parseFileInto(const QString& path, const ParseLimits& limits, ParseResult& result)
{
    reserveThreadHeap();
    auto tooLargeError = [&]() {
        result.diagnostics.append(makeError(
            path, {}, QStringLiteral("the file is larger than the limit of %1 bytes").arg(limits.maxFileBytes)));
    };
    if (!path.startsWith(QLatin1Char(':'))) { // not a Qt resource
        if (hasSuffix(path, QLatin1String("zst")) && !startsAsOtherCompression(path)) {
            parseZstdFile(path, limits, result); // streamed, never whole in memory
            return;
        }
        if (streamJsonLines(path, limits, result))
            return; // a big JSON Lines file, streamed
        thread_local std::string buffer;
        std::size_t size = 0;
        QString error;
        bool tooLarge = false;
        struct stat status
        {
        };
        if (!readPosix(path, limits.maxFileBytes, buffer, size, error, tooLarge, status, limits.folder)) {
            result.diagnostics.append(makeError(path, {}, QStringLiteral("cannot read: ") + error));
            return;
        }
        if (tooLarge) {
            tooLargeError();
            return;
        }
        parseText(
            std::string_view(buffer.data(), size), true, path, limits, result, status.st_size > 0 ? &status : nullptr);
        if (buffer.size() > (std::size_t(64) << 20))
            std::string().swap(buffer); // one big file read: give the memory back rather than keep it
        return;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        result.diagnostics.append(makeError(path, {}, QStringLiteral("cannot open: ") + f.errorString()));
        return;
    }
    if (f.size() > limits.maxFileBytes) {
        tooLargeError();
        return;
    }
    const QByteArray bytes = f.readAll();
    parseText(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())), false, path, limits, result);
}

ParseResult parseFile(const QString& path, const ParseLimits& limits)
{
    ParseResult result;
    parseFileInto(path, limits, result);
    return result;
}

} // namespace kix
