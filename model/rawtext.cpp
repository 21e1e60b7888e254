// SPDX-License-Identifier: Apache-2.0
#include "model/rawtext.h"

#include "model/read/jsondom.h"

#include <QFile>
#include <QHashFunctions>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kix {

namespace rawtext {

RawSource sourceOfFile(const QString& path, const struct ::stat& info)
{
    RawSource source;
    source.path = path;
    source.device = quint64(info.st_dev);
    source.inode = quint64(info.st_ino);
    source.size = qint64(info.st_size);
    source.modifiedNs = qint64(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
    source.changedNs = qint64(info.st_ctim.tv_sec) * 1'000'000'000 + info.st_ctim.tv_nsec;
    return source;
}

QString changedSince(int fd, const RawSource& source)
{
    struct stat info
    {
    };
    if (::fstat(fd, &info) != 0)
        return QString::fromLocal8Bit(std::strerror(errno));
    const RawSource now = sourceOfFile(source.path, info);
    if (now.device != source.device || now.inode != source.inode)
        return QStringLiteral("the file was replaced since it was loaded");
    if (now.size != source.size || now.modifiedNs != source.modifiedNs || now.changedNs != source.changedNs)
        return QStringLiteral("the file changed since it was loaded");
    return {};
}

} // namespace rawtext

using rawtext::changedSince;

quint64 RawSource::hashOf(std::string_view bytes)
{
    // a change detector, not a defence: Qt's hash of the bytes (AES-NI where the CPU has it), with a fixed seed
    return quint64(qHashBits(bytes.data(), bytes.size(), 0x6B6978u));
}

bool RawText::load(QString* error) const
{
    if (!m_source || std::atomic_load(&m_buffer))
        return true;
    auto fail = [&](const QString& why) {
        if (error)
            *error = m_source->wholeDocument
                ? QStringLiteral("%1: cannot read the run back: %2 (load it again)").arg(m_source->path, why)
                : QStringLiteral("%1: cannot read the run back at byte %2: %3 (load it again)")
                      .arg(m_source->path)
                      .arg(m_offset)
                      .arg(why);
        return false;
    };
    const int fd = ::open(QFile::encodeName(m_source->path).constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return fail(QString::fromLocal8Bit(std::strerror(errno)));
    QString why = changedSince(fd, *m_source);
    auto text = std::make_shared<std::string>(m_size, '\0');
    std::size_t got = 0;
    while (why.isEmpty() && got < m_size) {
        const ssize_t n = ::pread(fd, text->data() + got, m_size - got, off_t(m_offset + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            why = n < 0 ? QString::fromLocal8Bit(std::strerror(errno)) : QStringLiteral("the file is shorter");
        else
            got += std::size_t(n);
    }
    if (why.isEmpty())
        why = changedSince(fd, *m_source); // written to while it was read
    ::close(fd);
    if (why.isEmpty() && m_source->wholeDocument && RawSource::hashOf(*text) != m_source->contentHash)
        why = QStringLiteral("the file changed since it was loaded");
    if (why.isEmpty() && minifiedOnRead()) {
        // as it was kept when loaded: minified, without a BOM
        std::string_view whole(*text);
        if (whole.substr(0, 3) == "\xEF\xBB\xBF")
            whole.remove_prefix(3);
        auto compact = std::make_shared<std::string>();
        compact->reserve(whole.size());
        jsondom::appendMinified(whole, *compact);
        text = std::move(compact);
    }
    // what was read is the document that was loaded: one JSON object, whole
    if (why.isEmpty() && (text->size() < 2 || text->front() != '{' || text->back() != '}'))
        why = QStringLiteral("the file changed since it was loaded");
    if (!why.isEmpty())
        return fail(why);
    // the first reader's text stays (another thread may hold a view of it)
    std::shared_ptr<const std::string> expected;
    std::atomic_compare_exchange_strong(&m_buffer, &expected, std::shared_ptr<const std::string>(std::move(text)));
    return true;
}

std::string_view RawText::view() const
{
    if (!m_source)
        return m_buffer ? std::string_view(m_buffer->data() + m_offset, m_size) : std::string_view();
    std::shared_ptr<const std::string> buffer = std::atomic_load(&m_buffer);
    if (!buffer) {
        if (!load())
            return {};
        buffer = std::atomic_load(&m_buffer);
    }
    return std::string_view(buffer->data(), buffer->size()); // it lives as long as this RawText
}

} // namespace kix
