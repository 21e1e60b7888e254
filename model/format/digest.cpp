// SPDX-License-Identifier: Apache-2.0
#include "model/format/digest.h"

#include "model/format/canonicaljson.h"

#include <QByteArray>
#include <QCryptographicHash>

#include <cstring>

#ifdef KIX_HAVE_OPENSSL
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <memory>
#endif

namespace kix::format {

void sha256Bytes(const char* data, std::size_t size, unsigned char (&hash)[32])
{
#ifdef KIX_HAVE_OPENSSL
    // OpenSSL's SHA-256 uses the CPU's SHA instructions: several times Qt's own on the loader's hot path (every run
    // resource a document holds is digested when it is read)
    // the algorithm fetched once, a context per thread (the one-shot SHA256() fetches it on every call)
    static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    thread_local const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    if (!md || !ctx || !EVP_DigestInit_ex2(ctx.get(), md, nullptr) || !EVP_DigestUpdate(ctx.get(), data, size)
        || !EVP_DigestFinal_ex(ctx.get(), hash, nullptr))
        SHA256(reinterpret_cast<const unsigned char*>(data), size, hash);
#else
    const QByteArray bytes
        = QCryptographicHash::hash(QByteArrayView(data, qsizetype(size)), QCryptographicHash::Sha256);
    std::memcpy(hash, bytes.constData(), sizeof hash);
#endif
}

void md5Bytes(const char* data, std::size_t size, unsigned char (&hash)[16])
{
#ifdef KIX_HAVE_OPENSSL
    // as sha256Bytes: fetched once, a context per thread (QCryptographicHash costs more than the hash of a digest)
    static EVP_MD* const md = EVP_MD_fetch(nullptr, "MD5", nullptr);
    thread_local const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    if (md && ctx && EVP_DigestInit_ex2(ctx.get(), md, nullptr) && EVP_DigestUpdate(ctx.get(), data, size)
        && EVP_DigestFinal_ex(ctx.get(), hash, nullptr))
        return;
#endif
    const QByteArray bytes = QCryptographicHash::hash(QByteArrayView(data, qsizetype(size)), QCryptographicHash::Md5);
    std::memcpy(hash, bytes.constData(), sizeof hash);
}

std::string sha256Digest(const std::string& bytes)
{
    unsigned char hash[32];
    sha256Bytes(bytes.data(), bytes.size(), hash);
    static const char hex[] = "0123456789abcdef";
    std::string out = "sha256:";
    out.resize(7 + 2 * sizeof hash);
    for (std::size_t i = 0; i < sizeof hash; ++i) {
        out[7 + 2 * i] = hex[hash[i] >> 4];
        out[8 + 2 * i] = hex[hash[i] & 15];
    }
    return out;
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
