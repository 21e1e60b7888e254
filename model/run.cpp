// SPDX-License-Identifier: Apache-2.0
#include "model/run.h"

#include "model/format/digest.h"
#include "model/read/jsondom.h"

#include <QCryptographicHash>
#include <QFile>
#include <QHashFunctions>
#include <QStringBuilder>

#include <algorithm>
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
        return runDigest.toString();
    return externalId % QLatin1Char('|') % protocolDigest % QLatin1Char('|') % workloadDigest % QLatin1Char('|')
        % environmentDigest % QLatin1Char('|') % implementationDigest % QLatin1Char('|') % status % QLatin1Char('|')
        % observedAt.toString(Qt::ISODateWithMs) % QLatin1Char('|') % QString::number(median, 'g', 17)
        % QLatin1Char('|') % metricName();
}

bool RunLinks::isEmpty() const
{
    return comparisonKey.isEmpty() && operationTitle.isEmpty() && operationAliases.isEmpty()
        && implementationTitle.isEmpty() && authors.isEmpty() && project.isEmpty() && workloadTitle.isEmpty()
        && protocolName.isEmpty() && timer.isEmpty();
}

bool RunLinks::operator==(const RunLinks& o) const
{
    return comparisonKey == o.comparisonKey && operationTitle == o.operationTitle
        && operationAliases == o.operationAliases && implementationTitle == o.implementationTitle
        && authors == o.authors && project == o.project && workloadTitle == o.workloadTitle
        && protocolName == o.protocolName && timer == o.timer;
}

std::shared_ptr<const RunLinks> RunLinks::share(RunLinks links)
{
    if (links.isEmpty())
        return nullptr;
    // once per thread, like the runs' shared lists: a direct-mapped cache of recent contents
    constexpr std::size_t kSlots = 1024;
    thread_local std::array<std::shared_ptr<const RunLinks>, kSlots> recent;
    char key[71];
    const QString keyText = links.comparisonKey.sha256Text(key) ? QString::fromLatin1(key, 70) : QString();
    const std::size_t h = qHashMulti(0, keyText, links.implementationTitle, links.operationTitle, links.project,
                              links.workloadTitle, links.protocolName)
        % kSlots;
    if (recent[h] && *recent[h] == links)
        return recent[h];
    auto made = std::make_shared<const RunLinks>(std::move(links));
    recent[h] = made;
    return made;
}

const RunLinks& Run::links() const
{
    static const RunLinks none;
    return linked ? *linked : none;
}

QStringList Run::strictKeyMissing() const
{
    if (!links().comparisonKey.isEmpty())
        return {};
    QStringList missing;
    switch (workloadCheck) {
    case DigestCheck::NotCarried:
        missing << QStringLiteral("workload document (operation, correctness)");
        break;
    case DigestCheck::Mismatch:
        missing << QStringLiteral("workload document (it does not match its digest)");
        break;
    case DigestCheck::Verified:
    case DigestCheck::VerifiedKix010:
        if (operationDigest.isEmpty())
            missing << QStringLiteral("operation digest");
        break;
    }
    const std::pair<const QString*, const char*> digests[] = { { &workloadDigest, "workload digest" },
        { &protocolDigest, "protocol digest" }, { &environmentDigest, "environment digest" } };
    for (const auto& [digest, what] : digests) {
        if (digest->isEmpty())
            missing << QLatin1String(what);
    }
    if (missing.isEmpty())
        missing << QStringLiteral("a canonical form of the workload's correctness");
    return missing;
}

QString Run::authorText() const
{
    const RunLinks& l = links();
    return l.authors.isEmpty() ? l.project : l.authors.join(QStringLiteral(", "));
}

QString Run::implementationLabel() const
{
    const QString who = authorText();
    const RunLinks& l = links();
    QStringList rest;
    const QString separator = QStringLiteral(" · ");
    for (const QString& part : l.implementationTitle.split(separator, Qt::SkipEmptyParts)) {
        const bool known = part == who || l.authors.contains(part) || part == kernel || part == l.operationTitle
            || l.operationAliases.contains(part) || part == benchmark;
        if (!known)
            rest << part;
    }
    if (rest.isEmpty() && !provider.isEmpty() && provider != who)
        rest << provider;
    if (who.isEmpty())
        return rest.isEmpty() ? l.implementationTitle : rest.join(separator);
    return rest.isEmpty() ? who : who + separator + rest.join(separator);
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
    if (s == QLatin1String("passed")) // nearly every run: one comparison, not thirteen
        return false;
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

RunIdentity RunIdentity::fromBytes(const QByteArray& sixteen)
{
    RunIdentity id;
    std::memcpy(id.bytes.data(), sixteen.constData(), std::min<std::size_t>(id.bytes.size(), sixteen.size()));
    return id;
}

bool RunIdentity::isEmpty() const
{
    for (const quint8 b : bytes) {
        if (b)
            return false;
    }
    return true;
}

QByteArray RunIdentity::toByteArray() const
{
    return QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size()));
}

size_t qHash(const RunIdentity& identity, size_t seed) noexcept
{
    return qHashBits(identity.bytes.data(), identity.bytes.size(), seed);
}

namespace {

constexpr char16_t kSha256Prefix[] = u"sha256:";
constexpr qsizetype kSha256PrefixSize = 7;
constexpr qsizetype kSha256TextSize = kSha256PrefixSize + 64;

int lowerHexValue(char16_t c)
{
    if (c >= u'0' && c <= u'9')
        return c - u'0';
    if (c >= u'a' && c <= u'f')
        return c - u'a' + 10;
    return -1; // upper-case hex is kept as text: it must read back as it was written
}

} // namespace

void CompactDigest::assign(const QString& text)
{
    m_other.reset();
    m_packed = false;
    if (text.size() == kSha256TextSize && QStringView(text).startsWith(QStringView(kSha256Prefix))) {
        const char16_t* hex = reinterpret_cast<const char16_t*>(text.constData()) + kSha256PrefixSize;
        bool ok = true;
        for (std::size_t i = 0; i < m_bytes.size() && ok; ++i) {
            const int hi = lowerHexValue(hex[2 * i]);
            const int lo = lowerHexValue(hex[2 * i + 1]);
            ok = hi >= 0 && lo >= 0;
            m_bytes[i] = quint8(hi * 16 + lo);
        }
        m_packed = ok;
    }
    if (!m_packed) {
        m_bytes.fill(0);
        if (!text.isEmpty())
            m_other = std::make_unique<QString>(text);
    }
}

void CompactDigest::assignSha256(const unsigned char (&hash)[32])
{
    m_other.reset();
    std::memcpy(m_bytes.data(), hash, m_bytes.size());
    m_packed = true;
}

bool CompactDigest::sha256Text(char (&out)[71]) const
{
    if (!m_packed)
        return false;
    static const char digits[] = "0123456789abcdef";
    std::memcpy(out, "sha256:", 7);
    for (std::size_t i = 0; i < m_bytes.size(); ++i) {
        out[7 + 2 * i] = digits[m_bytes[i] >> 4];
        out[8 + 2 * i] = digits[m_bytes[i] & 15];
    }
    return true;
}

QString CompactDigest::toString() const
{
    if (!m_packed)
        return m_other ? *m_other : QString();
    static const char digits[] = "0123456789abcdef";
    QString out(kSha256TextSize, Qt::Uninitialized);
    QChar* o = out.data();
    for (qsizetype i = 0; i < kSha256PrefixSize; ++i)
        o[i] = QChar(kSha256Prefix[i]);
    for (std::size_t i = 0; i < m_bytes.size(); ++i) {
        o[kSha256PrefixSize + 2 * qsizetype(i)] = QLatin1Char(digits[m_bytes[i] >> 4]);
        o[kSha256PrefixSize + 2 * qsizetype(i) + 1] = QLatin1Char(digits[m_bytes[i] & 15]);
    }
    return out;
}

RunIdentity Run::identityHash() const
{
    // the run's own digest, hashed as the UTF-8 of identityKey() is, without making that QString
    char text[71];
    if (identity.isEmpty() && runDigest.sha256Text(text)) {
        RunIdentity out;
        unsigned char md5[16];
        format::md5Bytes(text, sizeof text, md5);
        std::memcpy(out.bytes.data(), md5, sizeof md5);
        return out;
    }
    return identity.isEmpty()
        ? RunIdentity::fromBytes(QCryptographicHash::hash(identityKey().toUtf8(), QCryptographicHash::Md5))
        : identity;
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

bool sameParam(const WorkloadParam& a, const WorkloadParam& b)
{
    return a.key == b.key && a.value == b.value
        && (a.number == b.number || (std::isnan(a.number) && std::isnan(b.number)));
}

bool sameKeyValue(const KeyValue& a, const KeyValue& b)
{
    return a.key == b.key && a.value == b.value;
}

size_t hashOf(const QVector<WorkloadParam>& list)
{
    size_t h = size_t(list.size());
    for (const WorkloadParam& p : list)
        h = qHashMulti(h, p.key, p.value);
    return h;
}

size_t hashOf(const QVector<KeyValue>& list)
{
    size_t h = size_t(list.size());
    for (const KeyValue& kv : list)
        h = qHashMulti(h, kv.key, kv.value);
    return h;
}

// The lists that runs repeat (a corpus has a few hundred workloads and label sets for a million runs) are made
// once per thread and shared, like the strings of model/stringpool.h: a direct-mapped cache of recent lists, so
// a list that does not repeat costs one slot, and memory stays bounded.
template<typename T, typename Same>
void share(QVector<T>& list, Same same)
{
    if (list.isEmpty())
        return;
    constexpr std::size_t kSlots = 1024;
    thread_local std::array<QVector<T>, kSlots> recent;
    QVector<T>& slot = recent[hashOf(list) % kSlots];
    if (slot.size() == list.size() && std::equal(slot.cbegin(), slot.cend(), list.cbegin(), same)) {
        list = slot;
        return;
    }
    list.squeeze();
    slot = list;
}

} // namespace

QByteArray Run::searchText() const
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
    const RunLinks& l = links();
    for (const QString* s : { &kernel, &pass, &provider, &gpuSlug, &workloadSlug, &name, &title, &benchmark,
             &l.operationTitle, &l.implementationTitle, &l.project, &l.workloadTitle }) {
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
    for (const QStringList* list : { &l.authors, &l.operationAliases }) {
        for (const QString& name : *list)
            add(name);
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
    return text;
}

void Run::finalize()
{
    share(workload, sameParam);
    share(labels, sameKeyValue);
    share(software, sameKeyValue);
    statistics.squeeze();
    measurements.squeeze();
    identity = RunIdentity(); // hash what the fields say now, not a stale value
    identity = identityHash();
}

} // namespace kix
