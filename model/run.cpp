// SPDX-License-Identifier: Apache-2.0
#include "model/run.h"

#include "model/format/digest.h"
#include "model/read/dialectkix010.h"

#include <QHashFunctions>
#include <QStringBuilder>

#include <algorithm>
#include <cstring>

namespace kix {

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
    case DigestCheck::VerifiedByDialect:
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
        "suspected_reward_hack", "incomplete_evidence", "revoked" };
    for (const char* f : failures) {
        if (s == QLatin1String(f))
            return true;
    }
    return dialects::isOwnFailureStatus(s);
}

bool Run::failed() const
{
    return isFailureStatus(status);
}

QString Run::describe(DigestCheck check, Dialect writtenIn)
{
    switch (check) {
    case DigestCheck::NotCarried:
        return QStringLiteral("not carried: the document names it by digest only");
    case DigestCheck::Verified:
        return QStringLiteral("verified");
    case DigestCheck::Mismatch:
        return QStringLiteral("does not match: the resource was changed after the run was written");
    case DigestCheck::VerifiedByDialect:
        return writtenIn == Dialect::Format ? QStringLiteral("matches its writer's own digest, not the format's")
                                            : dialects::ownDigestVerified(writtenIn);
    }
    return {};
}

QString Run::dialectName() const
{
    return dialects::name(dialect);
}

QString Run::dialectNote() const
{
    return dialects::note(dialect);
}

RunIdentity Run::identityHash() const
{
    if (!identity.isEmpty())
        return identity;
    // MD5 of the UTF-8 of identityKey(); for a run with its own digest, of that digest's text, without making the
    // QString
    unsigned char md5[16];
    char text[71];
    if (runDigest.sha256Text(text)) {
        format::md5Bytes(text, sizeof text, md5);
    } else {
        const QByteArray key = identityKey().toUtf8();
        format::md5Bytes(key.constData(), std::size_t(key.size()), md5);
    }
    RunIdentity out;
    std::memcpy(out.bytes.data(), md5, sizeof md5);
    return out;
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
