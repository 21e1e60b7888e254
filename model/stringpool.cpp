// A 100k-run corpus holds a handful of GPUs, protocols and digests, and each copy of a protocol's notes alone is
// ~1 KB: the loader makes each such string once per thread, straight from the parser's UTF-8 bytes.
#include "model/stringpool.h"

#include <QByteArray>
#include <QHash>

namespace kix {

namespace {

constexpr std::size_t kMaxInternedBytes = 2048;
constexpr qsizetype kMaxPoolSize = 1 << 16;

} // namespace

QString internUtf8(std::string_view utf8)
{
    if (utf8.empty())
        return {};
    if (utf8.size() > kMaxInternedBytes)
        return QString::fromUtf8(utf8.data(), qsizetype(utf8.size()));
    thread_local QHash<QByteArray, QString> pool;
    const QByteArray key = QByteArray::fromRawData(utf8.data(), qsizetype(utf8.size()));
    const auto it = pool.constFind(key);
    if (it != pool.cend())
        return *it;
    if (pool.size() >= kMaxPoolSize)
        pool.clear(); // a pathological corpus of unique strings: start over rather than grow without bound
    const QString s = QString::fromUtf8(utf8.data(), qsizetype(utf8.size()));
    pool.insert(QByteArray(utf8.data(), qsizetype(utf8.size())), s);
    return s;
}

} // namespace kix
