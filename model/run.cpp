// SPDX-License-Identifier: Apache-2.0
#include "model/run.h"

#include <QCryptographicHash>
#include <QFile>
#include <QStringBuilder>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kix {

namespace {

// The file, opened, is the one the text was read from: same inode, size, modification and change times.
QString changedSince(int fd, const RawSource& source)
{
    struct stat info
    {
    };
    if (::fstat(fd, &info) != 0)
        return QString::fromLocal8Bit(std::strerror(errno));
    const qint64 modified = qint64(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
    const qint64 changed = qint64(info.st_ctim.tv_sec) * 1'000'000'000 + info.st_ctim.tv_nsec;
    if (quint64(info.st_dev) != source.device || quint64(info.st_ino) != source.inode)
        return QStringLiteral("the file was replaced since it was loaded");
    if (qint64(info.st_size) != source.size || modified != source.modifiedNs || changed != source.changedNs)
        return QStringLiteral("the file changed since it was loaded");
    return {};
}

} // namespace

bool RawText::load(QString* error) const
{
    if (!m_source || std::atomic_load(&m_buffer))
        return true;
    auto fail = [&](const QString& why) {
        if (error)
            *error = QStringLiteral("%1: cannot read the run back at byte %2: %3 (load it again)")
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
    ::close(fd);
    // what was read is the line that was loaded: one JSON object, whole
    if (why.isEmpty() && (m_size < 2 || text->front() != '{' || text->back() != '}'))
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

QString Run::param(const QString& key) const
{
    for (const WorkloadParam& p : workload) {
        if (p.key == key)
            return p.value;
    }
    return {};
}

double Run::paramNumber(const QString& key) const
{
    for (const WorkloadParam& p : workload) {
        if (p.key == key)
            return p.number;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

double Run::statistic(const QString& name) const
{
    if (name == headlineStatistic || (name == QLatin1String("median") && headlineStatistic.isEmpty()))
        return median;
    if (name == QLatin1String("p20"))
        return p20;
    if (name == QLatin1String("p80"))
        return p80;
    for (const Measurement& m : statistics) {
        if (m.statistic == name)
            return m.value;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

double Run::spread() const
{
    if (!(median > 0) || std::isnan(p20) || std::isnan(p80))
        return std::numeric_limits<double>::quiet_NaN();
    return (p80 - p20) / median;
}

double Run::measurementValue(const QString& metric) const
{
    for (const Measurement& m : measurements) {
        if (m.metric == metric)
            return m.value;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

double Run::bandwidthFraction() const
{
    const double recorded = measurementValue(QStringLiteral("bandwidth_fraction"));
    if (std::isfinite(recorded))
        return recorded;
    const double copy = measurementValue(QStringLiteral("copy_bandwidth"));
    return copy > 0 ? achievedGBs() / copy : std::numeric_limits<double>::quiet_NaN();
}

QString Run::identityKey() const
{
    if (!runDigest.isEmpty())
        return runDigest;
    return externalId % QLatin1Char('|') % protocolDigest % QLatin1Char('|') % workloadDigest % QLatin1Char('|')
        % environmentDigest % QLatin1Char('|') % implementationDigest % QLatin1Char('|') % status % QLatin1Char('|')
        % observedAt.toString(Qt::ISODateWithMs) % QLatin1Char('|') % QString::number(median, 'g', 17)
        % QLatin1Char('|') % metricName();
}

QString Run::metricName() const
{
    switch (metric) {
    case Metric::Latency:
        return QStringLiteral("latency");
    case Metric::Memory:
        return QStringLiteral("memory");
    case Metric::Other:
        break;
    }
    return headlineMetric;
}

bool Run::isFailureStatus(const QString& s)
{
    static const char* const failures[] = { "incorrect_shape", "incorrect_dtype", "incorrect_numerical",
        "compile_error", "runtime_error", "timeout", "resource_exceeded", "invalid_reference", "policy_violation",
        "suspected_reward_hack", "incomplete_evidence", "revoked", "failed" };
    for (const char* f : failures) {
        if (s == QLatin1String(f))
            return true;
    }
    return false;
}

bool Run::failed() const
{
    return isFailureStatus(status);
}

QString Run::describe(DigestCheck check)
{
    switch (check) {
    case DigestCheck::NotCarried:
        return QStringLiteral("not carried: the document names it by digest only");
    case DigestCheck::Verified:
        return QStringLiteral("verified");
    case DigestCheck::Mismatch:
        return QStringLiteral("does not match: the resource was changed after the run was written");
    case DigestCheck::VerifiedKix010:
        return QStringLiteral("matches kix 0.1.0's own digest, not the format's (sha256 of JCS of "
                              "{apiVersion, kind, spec})");
    }
    return {};
}

QByteArray Run::identityHash() const
{
    return identity.isEmpty() ? QCryptographicHash::hash(identityKey().toUtf8(), QCryptographicHash::Md5) : identity;
}

namespace {

// Appends the lower-case UTF-8 of s: ASCII directly, anything else through QString::toLower.
void appendLower(QByteArray& out, const QString& s)
{
    const char16_t* p = reinterpret_cast<const char16_t*>(s.constData());
    const qsizetype n = s.size();
    for (qsizetype i = 0; i < n; ++i) {
        if (p[i] >= 0x80) {
            out += s.toLower().toUtf8();
            return;
        }
    }
    const qsizetype at = out.size();
    out.resize(at + n);
    char* o = out.data() + at;
    for (qsizetype i = 0; i < n; ++i) {
        const char c = static_cast<char>(p[i]);
        o[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
    }
}

} // namespace

void Run::finalize()
{
    // The externalId already holds kernel, pass, provider, GPU slug, workload and timestamp.
    QByteArray text;
    text.reserve(externalId.size() + gpuProduct.size() + file.size() + 64 + 32 * labels.size());
    auto add = [&](const QString& s) {
        if (!text.isEmpty())
            text += ' ';
        appendLower(text, s);
    };
    add(externalId);
    const qsizetype idBytes = text.size();
    for (const QString* s : { &gpuProduct, &gpuArchitecture, &status, &source, &file })
        add(*s);
    // The names shown in the table and Details, whatever the externalId says: a run whose kernel, implementation
    // or workload come from its linked resources (not a Liger slug) is found by them too.
    QByteArray lowered;
    for (const QString* s : { &kernel, &pass, &provider, &gpuSlug, &workloadSlug, &name, &title, &benchmark }) {
        if (s->isEmpty())
            continue;
        lowered.clear();
        appendLower(lowered, *s);
        if (std::string_view(text.constData(), std::size_t(idBytes))
                .find(std::string_view(lowered.constData(), std::size_t(lowered.size())))
            == std::string_view::npos) {
            text += ' ';
            text += lowered;
        }
    }
    if (!isLatency()) {
        text += ' ';
        appendLower(text, metricName());
    }
    if (failed())
        text += " failed";
    for (const KeyValue& label : labels) {
        add(label.key);
        text += '=';
        appendLower(text, label.value);
    }
    text.squeeze();
    searchText = text;
    identity = QByteArray(); // hash what the fields say now, not a stale value
    identity = identityHash();
}

} // namespace kix
