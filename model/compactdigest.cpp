// SPDX-License-Identifier: Apache-2.0
#include "model/compactdigest.h"

#include <QHashFunctions>

#include <algorithm>
#include <cstring>

namespace kix {

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

namespace compactdigest {

int lowerHexValue(char16_t c)
{
    if (c >= u'0' && c <= u'9')
        return c - u'0';
    if (c >= u'a' && c <= u'f')
        return c - u'a' + 10;
    return -1; // upper-case hex is kept as text: it must read back as it was written
}

} // namespace compactdigest

using namespace compactdigest;

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

} // namespace kix
