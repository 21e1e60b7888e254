// SPDX-License-Identifier: Apache-2.0
// The run's envelope, metadata and sourceNative: what the run is and what names it.
#include "model/read/extractsections.h"

#include "model/read/dialectkix010.h"
#include "model/read/resourcecheck.h"
#include "model/runfields.h"
#include "model/stringpool.h"

namespace kix::extract {

namespace {

const char* const kApiVersion = "kernelindex.dev/v1alpha1";

// Sources whose externalId and benchmark follow Liger's `kernel/pass/...` convention (Liger's own bench and what
// kix itself writes or imports).
bool ligerConvention(const QString& source)
{
    static const char* const sources[]
        = { "liger-kernel-bench", "kix-engine", "google-benchmark", "nvbench", "pytest-benchmark" };
    for (const char* s : sources) {
        if (source == QLatin1String(s))
            return true;
    }
    return false;
}

// The six parts of a Liger externalId `kernel/pass/provider/gpu/workload/timestamp`, all present; else false.
// `more`: the source follows the convention, and kix's own importers add parts after the six ("/memory").
bool ligerSlug(std::string_view text, std::string_view* part, bool more)
{
    int n = 0;
    std::size_t from = 0;
    while (n < 6) {
        const std::size_t slash = text.find('/', from);
        part[n++] = text.substr(from, slash == std::string_view::npos ? std::string_view::npos : slash - from);
        if (part[n - 1].empty())
            return false;
        if (slash == std::string_view::npos)
            return n == 6;
        from = slash + 1;
    }
    return more; // a seventh part
}

} // namespace

bool readEnvelope(RunExtraction& x)
{
    FieldReader& r = x.fields;
    if (!isObject(x.document)) {
        r.error(x.top.str(),
            QStringLiteral("not a kernelindex document: expected an object, found %1").arg(typeNameOf(x.document)));
        return false;
    }
    x.run = std::make_shared<Run>();
    x.run->file = x.file;
    x.run->pointer = x.top.str();

    x.runObject = x.document;
    if (x.combined) {
        x.runObject = r.object(x.document, "run", x.top);
        x.protocol = r.object(x.document, "protocol", x.top);
        x.environment = r.object(x.document, "environment", x.top);
        x.workloadResource = r.object(x.document, "workload", x.top);
        x.operationResource = r.object(x.document, "operation", x.top);
        x.implementationResource = r.object(x.document, "implementation", x.top);
        if (!x.runObject)
            return false;
    }
    const std::string_view kind = r.utf8(x.runObject, "kind", x.runPointer);
    if (kind != "BenchmarkRun") {
        r.error(Path(x.runPointer, "kind"),
            kind.empty()
                ? QStringLiteral("not a kernelindex document: no \"run\" member and no kind BenchmarkRun (kix "
                                 "reads kernelindex, nvbench, Google Benchmark and pytest-benchmark JSON, "
                                 "and Liger-Kernel CSV)")
                : QStringLiteral("not a kernelindex run: kind is \"%1\", expected BenchmarkRun").arg(fromUtf8(kind)));
        return false;
    }
    Run* run = x.run.get();
    run->apiVersion = r.shared(x.runObject, "apiVersion", x.runPointer);
    if (!run->apiVersion.isEmpty() && run->apiVersion != QLatin1String(kApiVersion))
        r.warning(Path(x.runPointer, "apiVersion"),
            QStringLiteral("unknown apiVersion \"%1\" (kix knows %2); read as %2")
                .arg(run->apiVersion, QLatin1String(kApiVersion)));

    x.spec = r.object(x.runObject, "spec", x.runPointer);
    if (!x.spec) {
        if (!r.failed())
            r.error(x.specPointer, QStringLiteral("the run has no spec"));
        return false;
    }
    return true;
}

void readMetadata(RunExtraction& x)
{
    FieldReader& r = x.fields;
    Run* run = x.run.get();
    if (unsigned char hash[32]; domResourceSha256(x.runObject.element, hash))
        run->runDigest.assignSha256(hash);
    const Path metadataPointer(x.runPointer, "metadata");
    const JsonValue metadata = r.object(x.runObject, "metadata", x.runPointer);
    run->name = r.own(metadata, "name", metadataPointer);
    run->title = r.shared(metadata, "title", metadataPointer);
    run->labels = keyValues(r.object(metadata, "labels", metadataPointer));

    run->status = r.shared(x.spec, "status", x.specPointer);
    const bool dialectStatus = dialects::markStatus(x, run->status); // a dialect's own status: its note names it
    if (!dialectStatus && !run->status.isEmpty() && run->status != QLatin1String("passed") && !run->failed())
        r.warning(Path(x.specPointer, "status"),
            QStringLiteral("unknown status \"%1\": not one of the format's 13; shown, not counted as passed")
                .arg(run->status));
    const std::string_view observed = r.utf8(x.spec, "observedAt", x.specPointer);
    if (!observed.empty()) {
        run->observedAt = parseTime(observed);
        if (!run->observedAt.isValid())
            r.warning(Path(x.specPointer, "observedAt"),
                QStringLiteral("observedAt \"%1\" is not an ISO-8601 time").arg(fromUtf8(observed)));
    }
    const char* digestKeys[] = { "protocolDigest", "workloadDigest", "environmentDigest", "implementationDigest" };
    QString* digestFields[]
        = { &run->protocolDigest, &run->workloadDigest, &run->environmentDigest, &run->implementationDigest };
    for (int i = 0; i < 4; ++i) {
        *digestFields[i] = r.shared(x.spec, digestKeys[i], x.specPointer);
        if (!digestFields[i]->isEmpty() && !isDigest(*digestFields[i]))
            r.warning(Path(x.specPointer, digestKeys[i]),
                QStringLiteral("\"%1\" is not a sha256: digest").arg(*digestFields[i]));
    }
}

void readSourceNative(RunExtraction& x)
{
    FieldReader& r = x.fields;
    Run* run = x.run.get();
    x.native = r.object(x.spec, "sourceNative", x.specPointer);
    run->source = r.shared(x.native, "source", x.nativePointer);
    dialects::markSourceNative(x);
    std::string_view externalId = r.utf8(x.native, "externalId", x.nativePointer);
    if (externalId.empty())
        externalId = r.utf8(x.spec, "externalId", x.specPointer);
    run->externalId = fromUtf8(externalId);
    const std::string_view benchmark = r.utf8(x.native, "benchmark", x.nativePointer);
    x.liger = ligerConvention(run->source);
    run->benchmark = internUtf8(benchmark); // the producer's name for a benchmark: shared by its runs
    std::string_view id[6];
    x.slugHeld = ligerSlug(externalId, id, x.liger);
    if (x.slugHeld) { // Liger's convention, where the externalId is one
        run->kernel = internUtf8(id[0]);
        run->pass = internUtf8(id[1]);
        run->provider = internUtf8(id[2]);
        run->gpuSlug = internUtf8(id[3]);
        run->workloadSlug = internUtf8(id[4]);
        setWorkload(id[4], *run);
    }
    // The source's benchmark name ("causal_conv1d", Liger's "group_norm/backward") names the kernel, unless an
    // externalId in Liger's convention already did: then the benchmark is that id's "kernel/pass" again.
    if (!benchmark.empty() && !(x.slugHeld && !run->kernel.isEmpty())) {
        const std::size_t slash = benchmark.find('/');
        if (x.liger && slash != std::string_view::npos) {
            run->kernel = internUtf8(benchmark.substr(0, slash));
            if (run->pass.isEmpty())
                run->pass = internUtf8(benchmark.substr(slash + 1));
        } else {
            run->kernel = internUtf8(benchmark);
        }
    }
}
} // namespace kix::extract
