// SPDX-License-Identifier: Apache-2.0
// kix 0.1.0's dialect: its marks, its inline samples, its own digests and its texts; see dialectkix010.h.
#include "model/read/dialectkix010.h"

#include "model/format/digest.h"
#include "model/read/extraction.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace kix::dialects {

namespace {

const char* const kKix010NotePrefix = "written by kix 0.1.0";

} // namespace

QString name(Dialect d)
{
    return d == Dialect::Kix010 ? QStringLiteral("kix 0.1.0") : QString();
}

QString note(Dialect d)
{
    return d == Dialect::Kix010 ? QStringLiteral("written by kix 0.1.0 (not v1alpha1 as the format defines it)")
                                : QString();
}

QString ownDigestVerified(Dialect d)
{
    return d == Dialect::Kix010 ? QStringLiteral("matches kix 0.1.0's own digest, not the format's (sha256 of JCS of "
                                                 "{apiVersion, kind, spec})")
                                : QString();
}

bool isOwnFailureStatus(const QString& status)
{
    return status == QLatin1String("failed");
}

bool markStatus(extract::RunExtraction& x, const QString& status)
{
    if (!isOwnFailureStatus(status))
        return false;
    x.dialectMarks << QStringLiteral("status \"failed\"");
    return true;
}

void markSourceNative(extract::RunExtraction& x)
{
    if (x.fields.member(x.native, "engine"))
        x.dialectMarks << QStringLiteral("sourceNative.engine");
}

void readInlineSamples(extract::RunExtraction& x)
{
    using namespace extract;
    FieldReader& r = x.fields;
    const JsonValue samples = r.member(x.timing, "samplesNs");
    if (!samples)
        return;
    x.dialectMarks << QStringLiteral("inline timing.samplesNs");
    const Path samplesPointer(x.timingPointer, "samplesNs");
    if (!isArray(samples)) {
        r.error(samplesPointer, QStringLiteral("expected an array of numbers, found %1").arg(typeNameOf(samples)));
        return;
    }
    const simdjson::dom::array values = jsondom::asArray(samples.element);
    x.run->samples.reserve(values.size());
    qsizetype i = 0;
    for (const Element element : values) {
        const JsonValue sample { element, true };
        const double v = isNumber(sample) && FieldReader::plausible(numberOf(sample), true)
            ? numberOf(sample)
            : r.checkNumber(sample, Path(samplesPointer, i), true);
        if (std::isnan(v))
            break;
        x.run->samples.push_back(v);
        ++i;
    }
}

void markOwnDigest(extract::RunExtraction& x, const char* what)
{
    x.dialectMarks << QStringLiteral("its own %1 digest").arg(QLatin1String(what));
}

DigestCheck checkOwnDigest(jsondom::Element resource, const QString& named)
{
    // kix 0.1.0 hashed nlohmann's dump (keys in byte order, its own number form) of the whole resource (engine
    // runs) or of its spec (Liger imports).
    const nlohmann::json parsed = nlohmann::json::parse(simdjson::minify(resource), nullptr, false);
    if (!parsed.is_discarded()) {
        auto own = [](const nlohmann::json& v) {
            return QString::fromStdString(
                format::sha256Digest(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
        };
        if (own(parsed) == named || (parsed.is_object() && parsed.contains("spec") && own(parsed.at("spec")) == named))
            return DigestCheck::VerifiedByDialect;
    }
    return DigestCheck::Mismatch;
}

void noteDialect(extract::RunExtraction& x)
{
    if (x.dialectMarks.isEmpty())
        return;
    x.run->dialect = Dialect::Kix010;
    x.fields.warning(x.runPointer,
        QLatin1String(kKix010NotePrefix)
            + QStringLiteral(" (%1): loaded as it was written; not v1alpha1 as the format defines it")
                  .arg(x.dialectMarks.join(QStringLiteral(", "))));
}

void dropNotes(Diagnostics& out, qsizetype from)
{
    for (qsizetype i = out.size() - 1; i >= from; --i) {
        if (!out[i].isError() && out[i].message.startsWith(QLatin1String(kKix010NotePrefix)))
            out.remove(i);
    }
}

} // namespace kix::dialects
