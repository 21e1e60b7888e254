// SPDX-License-Identifier: Apache-2.0
#include "model/format/digest.h"

#include "model/format/canonicaljson.h"

#include <QByteArray>
#include <QCryptographicHash>

namespace kix::format {

std::string sha256Digest(const std::string& bytes)
{
    const QByteArray hash
        = QCryptographicHash::hash(QByteArrayView(bytes.data(), qsizetype(bytes.size())), QCryptographicHash::Sha256);
    return "sha256:" + hash.toHex().toStdString();
}

std::string kernelindexDigest(const nlohmann::json& resource)
{
    const auto member = [&](const char* key) {
        if (!resource.is_object())
            return nlohmann::json();
        const auto it = resource.find(key);
        return it == resource.end() ? nlohmann::json() : *it;
    };
    const nlohmann::json body
        = { { "apiVersion", member("apiVersion") }, { "kind", member("kind") }, { "spec", member("spec") } };
    return sha256Digest(canonicalJson(body));
}

} // namespace kix::format
