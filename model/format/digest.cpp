#include "model/format/digest.h"

#include "model/format/canonicaljson.h"

#include <QByteArray>
#include <QCryptographicHash>

#include <nlohmann/json.hpp>

namespace kix {

QString sha256Digest(std::string_view bytes)
{
    const QByteArray hash
        = QCryptographicHash::hash(QByteArrayView(bytes.data(), qsizetype(bytes.size())), QCryptographicHash::Sha256);
    return QStringLiteral("sha256:") + QString::fromLatin1(hash.toHex());
}

QString kernelindexDigest(const nlohmann::json& resource)
{
    nlohmann::json hashed = nlohmann::json::object();
    if (resource.is_object()) {
        for (const char* key : { "apiVersion", "kind", "spec" }) {
            if (const auto it = resource.find(key); it != resource.end())
                hashed[key] = *it;
        }
    }
    return sha256Digest(canonicalJson(hashed));
}

} // namespace kix
