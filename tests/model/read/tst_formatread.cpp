// SPDX-License-Identifier: Apache-2.0
// Reading documents as the kernelindex format defines them: every carried resource checked against the digest its
// run names; a run is its content (repeated observations kept, a true duplicate named with both places); any
// headline (latency statistic, leaderboard score), any status; kernel, provider and workload from the linked
// resources, the Liger externalId convention only where it holds. Fixtures are written here in the catalog's shape.
#include "model/compare/comparability.h"
#include "model/filter/runtablemodel.h"
#include "model/format/digest.h"
#include "model/read/documentparser.h"
#include "model/read/runextract.h"
#include "model/read/runloader.h"

#include "tests/support/testmain.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;
using json = nlohmann::json;

namespace {

const char* const kApi = "kernelindex.dev/v1alpha1";

// kix's digests as text (named apart from format::kernelindexDigest and format::sha256Digest, which a unity batch
// may make visible unqualified).
QString digestText(const json& resource)
{
    return QString::fromStdString(format::kernelindexDigest(resource));
}
QString sha256Text(const std::string& bytes)
{
    return QString::fromStdString(format::sha256Digest(bytes));
}

json resource(const char* kind, const std::string& name, json spec)
{
    return { { "apiVersion", kApi }, { "kind", kind }, { "metadata", { { "name", name } } },
        { "spec", std::move(spec) } };
}

json protocol()
{
    return resource("BenchmarkProtocol", "leaderboard-eval",
        { { "harness", { { "name", "reference-kernels eval.py" } } },
            { "measurement", { { "timer", "cuda_events" }, { "primaryStatistic", "geomean" } } },
            { "comparability", { { "family", "leaderboard" } } } });
}

json environment()
{
    return resource("ExecutionEnvironment", "b200",
        { { "hardware", { { "vendor", "nvidia" }, { "product", "NVIDIA B200" }, { "architecture", "sm_100" } } },
            { "software", json::object() } });
}

json operation()
{
    return resource("OperationSpec", "causal_conv1d",
        { { "family", "conv1d" }, { "axes", { { "batch", { { "role", "shape" }, { "type", "int" } } } } } });
}

json workload(const json& op)
{
    return resource("WorkloadCase", "causal-conv1d-b4",
        { { "operationSpecDigest", digestText(op).toStdString() }, { "axes", { { "dim", 2048 }, { "batch", 4 } } },
            { "tensors",
                { { "x", { { "dtype", "bf16" }, { "shape", { "batch", "dim" } } } },
                    { "w", { { "dtype", "bf16" }, { "shape", { "dim" } } } } } },
            { "correctness", { { "comparator", "allclose" } } } });
}

json implementation(const json& op)
{
    return resource("ImplementationRevision", "kernelbot-causal-conv1d-555004",
        { { "projectRevision", { { "version", "submission-555004" } } },
            { "operation", { { "specDigest", digestText(op).toStdString() } } },
            { "callable", { { "language", "python" } } } });
}

// A KernelBot-like leaderboard run: only a score measurement, its own externalId, nothing of Liger's convention.
json scoreDocument(const json& p, const json& e, const std::string& workloadDigest, const std::string& implDigest)
{
    return resource("BenchmarkRun", "kernelbot-555004",
        { { "status", "passed" }, { "observedAt", "2026-03-14T23:56:12.645Z" },
            { "protocolDigest", digestText(p).toStdString() }, { "environmentDigest", digestText(e).toStdString() },
            { "workloadDigest", workloadDigest }, { "implementationDigest", implDigest },
            { "measurements",
                { { { "metric", "score" }, { "statistic", "geomean" }, { "unit", "s" },
                    { "value", 1.0048658277929109e-05 } } } },
            { "sourceNative",
                { { "source", "gpumode-kernelbot" }, { "benchmark", "causal_conv1d" },
                    { "externalId", "submission/555004" } } } });
}

const std::string kDigestA = "sha256:" + std::string(64, 'a');
const std::string kDigestB = "sha256:" + std::string(64, 'b');

ParseResult parse(const json& document, const QString& file = QStringLiteral("doc.json"))
{
    return parseBytes(QByteArray::fromStdString(document.dump()), file);
}

QString diagnosticLines(const Diagnostics& ds)
{
    QStringList lines;
    for (const Diagnostic& d : ds)
        lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}

const Diagnostic* find(const Diagnostics& ds, const QString& text)
{
    for (const Diagnostic& d : ds) {
        if (d.message.contains(text))
            return &d;
    }
    return nullptr;
}

// A FlashInfer-like run: no externalId, a latency headline; repeated observations differ in observedAt and timing.
json flashInferRun(const std::string& observedAt, int meanNs)
{
    return resource("BenchmarkRun", "flashinfer-gemm",
        { { "status", "passed" }, { "observedAt", observedAt }, { "protocolDigest", kDigestA },
            { "environmentDigest", kDigestA }, { "workloadDigest", kDigestB }, { "implementationDigest", kDigestB },
            { "timing", { { "primaryStatistic", "mean" }, { "latencyNs", { { "mean", meanNs } } } } },
            { "sourceNative",
                { { "source", "flashinfer-bench" }, { "benchmark", "gemm_fp4_e2m1_n2048_k2048" },
                    { "metrics", { { "latency_ms", meanNs / 1e6 } } } } } });
}

} // namespace

class TestFormatRead : public QObject
{
    Q_OBJECT
private slots:
    void seedVerifiesBothDigests();
    void carriedResourcesAreVerified();
    void changedResourceDoesNotMatch();
    void kix010DigestsAreNamed();
    void scoreRunLoadsWithItsOwnHeadline();
    void failedRunLoadsAsFailed();
    void primaryStatisticNamesTheHeadline();
    void durationsWithUnits();
    void typedViewFromLinkedResources();
    void ligerConventionOnlyWhereItHolds();
    void repeatedObservationsAreAllKept();
    void trueDuplicateNamesBothPlaces();
    void comparabilityTreatsMismatchAsUnknown();
};

void TestFormatRead::seedVerifiesBothDigests()
{
    const QString shared = qEnvironmentVariable("KIX_SHARED_DIR");
    QFile f(shared + QStringLiteral("/data/seed/group_norm-backward-huggingface-nvidia-b200.json"));
    if (shared.isEmpty() || !f.open(QIODevice::ReadOnly))
        QSKIP("the seed is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    const QByteArray bytes = f.readAll();
    ParseResult r = parseBytes(bytes, QStringLiteral("seed.json"));
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(diagnosticLines(r.diagnostics)));
    QCOMPARE(r.runs.size(), 1);
    const Run& seed = *r.runs.first();
    QCOMPARE(seed.protocolCheck, DigestCheck::Verified);
    QCOMPARE(seed.environmentCheck, DigestCheck::Verified);
    QCOMPARE(seed.workloadCheck, DigestCheck::NotCarried);
    QCOMPARE(seed.implementationCheck, DigestCheck::NotCarried);
    QCOMPARE(seed.dialect, Dialect::Format);
    QCOMPARE(seed.kernel, QStringLiteral("group_norm"));
    QCOMPARE(seed.provider, QStringLiteral("huggingface"));
    QCOMPARE(seed.metricName(), QStringLiteral("latency"));
    QCOMPARE(seed.median, 1315872.0);

    // a copy with one protocol field changed: the protocol digest no longer matches, the environment's still does
    json changed = json::parse(bytes.toStdString());
    changed["protocol"]["spec"]["measurement"]["timer"] = "wall_clock";
    r = parse(changed, QStringLiteral("changed.json"));
    QCOMPARE(r.runs.size(), 1);
    QCOMPARE(r.runs.first()->protocolCheck, DigestCheck::Mismatch);
    QCOMPARE(r.runs.first()->environmentCheck, DigestCheck::Verified);
    QCOMPARE(r.diagnostics.size(), 1);
    QCOMPARE(r.diagnostics.first().severity, Diagnostic::Severity::Warning);
    QCOMPARE(r.diagnostics.first().pointer, QStringLiteral("/run/spec/protocolDigest"));
    QVERIFY(r.diagnostics.first().message.contains(QStringLiteral("the resource was changed after the run")));
    QCOMPARE(Run::describe(r.runs.first()->protocolCheck),
        QStringLiteral("does not match: the resource was changed after the run was written"));
}

void TestFormatRead::carriedResourcesAreVerified()
{
    // Numbers in every ES form and a non-ASCII key inside a spec: the reader's canonical form must agree with
    // kernelindexDigest's, or the digest would not verify.
    json p = protocol();
    p["spec"]["measurement"]["warmupIterations"] = 10;
    p["spec"]["devicePolicy"] = { { "powerLimitWatts", 1000.0 }, { "ratio", 1.0048658277929109e-05 }, { "big", 1e21 },
        { "small", 0.000001 }, { "tiny", 5e-7 }, { "\xC3\xB6ko", "\xE2\x82\xAC" } };
    const json e = environment();
    const json doc = { { "run", scoreDocument(p, e, kDigestA, kDigestB) }, { "protocol", p }, { "environment", e } };
    const ParseResult r = parse(doc);
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(diagnosticLines(r.diagnostics)));
    const Run& run = *r.runs.first();
    QCOMPARE(run.protocolCheck, DigestCheck::Verified);
    QCOMPARE(run.environmentCheck, DigestCheck::Verified);
    QCOMPARE(run.workloadCheck, DigestCheck::NotCarried);
    QCOMPARE(run.runDigest.toString(), digestText(doc.at("run")));
}

void TestFormatRead::changedResourceDoesNotMatch()
{
    const json p = protocol();
    const json e = environment();
    json doc = { { "run", scoreDocument(p, e, kDigestA, kDigestB) }, { "protocol", p }, { "environment", e } };
    doc["protocol"]["metadata"]["title"] = "retitled"; // metadata is not hashed: still verified
    doc["environment"]["spec"]["hardware"]["product"] = "NVIDIA H100"; // the spec is
    const ParseResult r = parse(doc);
    QCOMPARE(r.runs.size(), 1);
    QCOMPARE(r.runs.first()->protocolCheck, DigestCheck::Verified);
    QCOMPARE(r.runs.first()->environmentCheck, DigestCheck::Mismatch);
    const Diagnostic* d = find(r.diagnostics, QStringLiteral("does not match the environment"));
    QVERIFY2(d, qPrintable(diagnosticLines(r.diagnostics)));
    QCOMPARE(d->pointer, QStringLiteral("/run/spec/environmentDigest"));
    QVERIFY(d->message.contains(digestText(doc["environment"]))); // says what it digests to
}

void TestFormatRead::kix010DigestsAreNamed()
{
    // kix 0.1.0's engine hashed nlohmann's dump of the whole resource, metadata included
    const json p = protocol();
    const json e = environment();
    json run = scoreDocument(p, e, kDigestA, kDigestB);
    run["spec"]["protocolDigest"] = sha256Text(p.dump()).toStdString();
    run["spec"]["status"] = "failed";
    const ParseResult r = parse({ { "run", run }, { "protocol", p }, { "environment", e } });
    QCOMPARE(r.runs.size(), 1);
    QCOMPARE(r.runs.first()->protocolCheck, DigestCheck::VerifiedByDialect);
    QCOMPARE(r.runs.first()->dialect, Dialect::Kix010);
    QCOMPARE(r.runs.first()->dialectName(), QStringLiteral("kix 0.1.0"));
    QVERIFY(Run::describe(DigestCheck::VerifiedByDialect, r.runs.first()->dialect)
                .startsWith(QStringLiteral("matches kix 0.1.0's own digest")));
    QVERIFY(r.runs.first()->failed());
    QCOMPARE(r.diagnostics.size(), 1); // one note for the document
    QVERIFY(r.diagnostics.first().message.contains(QStringLiteral("written by kix 0.1.0")));
    QVERIFY(r.diagnostics.first().message.contains(QStringLiteral("status \"failed\"")));
}

void TestFormatRead::scoreRunLoadsWithItsOwnHeadline()
{
    const json p = protocol();
    const json e = environment();
    const ParseResult r
        = parse({ { "run", scoreDocument(p, e, kDigestA, kDigestB) }, { "protocol", p }, { "environment", e } });
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(diagnosticLines(r.diagnostics)));
    QCOMPARE(r.runs.size(), 1);
    const Run& run = *r.runs.first();
    QCOMPARE(run.metricName(), QStringLiteral("score"));
    QVERIFY(!run.isLatency());
    QCOMPARE(run.unit, QStringLiteral("s"));
    QCOMPARE(run.headlineStatistic, QStringLiteral("geomean"));
    QCOMPARE(run.median, 1.0048658277929109e-05);
    QVERIFY(run.measurements.isEmpty()); // the headline is not listed twice
    QVERIFY(!run.failed());
    // KernelBot's externalId is its own: no kernel "submission", no pass "555004"
    QCOMPARE(run.externalId, QStringLiteral("submission/555004"));
    QCOMPARE(run.kernel, QStringLiteral("causal_conv1d")); // sourceNative.benchmark
    QVERIFY(run.pass.isEmpty());
    QVERIFY(run.provider.isEmpty());
    QVERIFY(run.workloadSlug.isEmpty());
    QCOMPARE(run.gpuSlug, QStringLiteral("nvidia-b200"));
}

void TestFormatRead::failedRunLoadsAsFailed()
{
    json run = resource("BenchmarkRun", "sol-36485",
        { { "status", "runtime_error" }, { "observedAt", "2026-03-01T00:00:00.000Z" }, { "protocolDigest", kDigestA },
            { "environmentDigest", kDigestA }, { "workloadDigest", kDigestB }, { "implementationDigest", kDigestB },
            { "sourceNative", { { "source", "sol-execbench" }, { "externalId", "36485" } } } });
    const ParseResult r = parse({ { "run", run } });
    QVERIFY2(
        r.diagnostics.isEmpty(), qPrintable(diagnosticLines(r.diagnostics))); // no "no headline" warning for a failure
    QCOMPARE(r.runs.size(), 1);
    QVERIFY(r.runs.first()->failed());
    QVERIFY(std::isnan(r.runs.first()->median));
    QVERIFY(r.runs.first()->kernel.isEmpty()); // "36485" is not a kernel
    for (const char* status : { "incorrect_shape", "incorrect_dtype", "incorrect_numerical", "compile_error",
             "runtime_error", "timeout", "resource_exceeded", "invalid_reference", "policy_violation",
             "suspected_reward_hack", "incomplete_evidence", "revoked" })
        QVERIFY2(Run::isFailureStatus(QString::fromLatin1(status)), status);
    QVERIFY(!Run::isFailureStatus(QStringLiteral("passed")));
    QVERIFY(!Run::isFailureStatus(QStringLiteral("valid")));
    // an unknown status loads, is not counted as passed or failed, and is named
    run["spec"]["status"] = "exploded";
    const ParseResult u = parse({ { "run", run } });
    QCOMPARE(u.runs.size(), 1);
    QVERIFY(find(u.diagnostics, QStringLiteral("unknown status \"exploded\"")));
}

void TestFormatRead::primaryStatisticNamesTheHeadline()
{
    json run = flashInferRun("2026-03-01T00:00:00.000Z", 5000);
    run["spec"]["timing"]["latencyNs"]["median"] = 4800;
    run["spec"]["timing"]["latencyNs"]["p95"] = 6000;
    const ParseResult r = parse({ { "run", run } });
    QCOMPARE(r.runs.size(), 1);
    const Run& a = *r.runs.first();
    QCOMPARE(a.headlineStatistic, QStringLiteral("mean"));
    QCOMPARE(a.median, 5000.0); // the headline value
    QCOMPARE(a.statistic(QStringLiteral("mean")), 5000.0);
    QCOMPARE(a.statistic(QStringLiteral("median")), 4800.0); // the median is still there, by its name
    QCOMPARE(a.statistic(QStringLiteral("p95")), 6000.0);
    QCOMPARE(a.metricName(), QStringLiteral("latency"));
    QVERIFY(a.kernel == QStringLiteral("gemm_fp4_e2m1_n2048_k2048"));
    QVERIFY(a.pass.isEmpty());
}

void TestFormatRead::durationsWithUnits()
{
    json run = flashInferRun("2026-03-01T00:00:00.000Z", 0);
    run["spec"]["timing"]["latencyNs"]["mean"] = "8.1 us";
    ParseResult r = parse({ { "run", run } });
    QVERIFY2(!r.hasErrors(), qPrintable(diagnosticLines(r.diagnostics)));
    QCOMPARE(r.runs.first()->median, 8100.0);
    // the format's own rule: "1.005 ms" is 1004999.9999999999 in binary arithmetic, not a whole ns: refused
    run["spec"]["timing"]["latencyNs"]["mean"] = "1.005 ms";
    r = parse({ { "run", run } });
    QVERIFY(r.hasErrors());
    QVERIFY(find(r.diagnostics, QStringLiteral("\"1.005 ms\" is not a duration")));
}

void TestFormatRead::typedViewFromLinkedResources()
{
    const json op = operation();
    const json w = workload(op);
    const json impl = implementation(op);
    const json p = protocol();
    const json e = environment();
    json doc = { { "run", scoreDocument(p, e, digestText(w).toStdString(), digestText(impl).toStdString()) },
        { "protocol", p }, { "environment", e }, { "workload", w }, { "operation", op }, { "implementation", impl } };
    ParseResult r = parse(doc);
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(diagnosticLines(r.diagnostics)));
    const Run& run = *r.runs.first();
    QCOMPARE(run.workloadCheck, DigestCheck::Verified);
    QCOMPARE(run.implementationCheck, DigestCheck::Verified);
    QCOMPARE(run.operationCheck, DigestCheck::Verified);
    QCOMPARE(run.operationDigest, digestText(op));
    QCOMPARE(run.kernel, QStringLiteral("causal_conv1d")); // the operation's name
    QCOMPARE(run.provider, QStringLiteral("kernelbot-causal-conv1d-555004"));
    QCOMPARE(run.param(QStringLiteral("batch")), QStringLiteral("4"));
    QCOMPARE(run.paramNumber(QStringLiteral("dim")), 2048.0);
    QCOMPARE(run.dtype, QStringLiteral("bf16"));
    QCOMPARE(run.workloadSlug, QStringLiteral("batch4-dim2048-bf16"));

    // a workload that is not the one the run names is not read into the run (and is named)
    doc["workload"]["spec"]["axes"]["batch"] = 8;
    r = parse(doc);
    QCOMPARE(r.runs.first()->workloadCheck, DigestCheck::Mismatch);
    QVERIFY(r.runs.first()->workload.isEmpty());
    QVERIFY(r.runs.first()->dtype.isEmpty());
    const Diagnostic* d = find(r.diagnostics, QStringLiteral("does not match the workload"));
    QVERIFY(d);
    QCOMPARE(d->pointer, QStringLiteral("/run/spec/workloadDigest"));
}

void TestFormatRead::ligerConventionOnlyWhereItHolds()
{
    json run = flashInferRun("2026-03-01T00:00:00.000Z", 5000);
    run["spec"]["sourceNative"]["externalId"] = "rms_norm/forward/liger/nvidia-h100/batch8-hidden4096-bf16/2026-03-01";
    ParseResult r = parse({ { "run", run } });
    QCOMPARE(r.runs.first()->provider, QStringLiteral("liger"));
    QCOMPARE(r.runs.first()->pass, QStringLiteral("forward"));
    QCOMPARE(r.runs.first()->param(QStringLiteral("hidden")), QStringLiteral("4096"));
    // five parts, or seven, or an empty part: not the convention; nothing is read from it
    for (const char* id : { "a/b/c/d/e", "a/b/c/d/e/f/g", "a//c/d/e/f", "amd-fp8-mm/0" }) {
        run["spec"]["sourceNative"]["externalId"] = id;
        r = parse({ { "run", run } });
        QVERIFY2(r.runs.first()->provider.isEmpty(), id);
        QVERIFY2(r.runs.first()->pass.isEmpty(), id);
        QCOMPARE(r.runs.first()->kernel, QStringLiteral("gemm_fp4_e2m1_n2048_k2048"));
    }
}

void TestFormatRead::repeatedObservationsAreAllKept()
{
    // the same four digests and no externalId, another observedAt and result: two runs, not one
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile f(dir.filePath(QStringLiteral("flashinfer.jsonl")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        QByteArray::fromStdString(json { { "run", flashInferRun("2026-03-01T00:00:00.000Z", 5000) } }.dump()) + "\n");
    f.write(
        QByteArray::fromStdString(json { { "run", flashInferRun("2026-03-02T00:00:00.000Z", 5200) } }.dump()) + "\n");
    f.close();
    const LoadResult r = loadPaths({ dir.path() });
    QCOMPARE(r.runs.size(), 2);
    QCOMPARE(r.duplicates, 0);
    QVERIFY(r.runs[0]->identityHash() != r.runs[1]->identityHash());
    RunTableModel model;
    model.setRuns(r.runs);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.appendRuns(r.runs), 2); // the same runs again are duplicates
}

void TestFormatRead::trueDuplicateNamesBothPlaces()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray line
        = QByteArray::fromStdString(json { { "run", flashInferRun("2026-03-01T00:00:00.000Z", 5000) } }.dump());
    // the same run resource with its keys in another order and indented is the same run
    const json parsed = json::parse(line.toStdString());
    std::vector<std::string> keys;
    for (const auto& item : parsed.at("run").items())
        keys.push_back(item.key());
    nlohmann::ordered_json reversed;
    for (auto it = keys.rbegin(); it != keys.rend(); ++it)
        reversed[*it] = parsed.at("run").at(*it);
    const QByteArray other = QByteArray::fromStdString(nlohmann::ordered_json { { "run", reversed } }.dump(2));
    QVERIFY(other.indexOf("\"spec\"") < other.indexOf("\"apiVersion\""));
    QFile a(dir.filePath(QStringLiteral("a.jsonl")));
    QVERIFY(a.open(QIODevice::WriteOnly));
    a.write(line + "\n" + line + "\n");
    a.close();
    QFile b(dir.filePath(QStringLiteral("b.json")));
    QVERIFY(b.open(QIODevice::WriteOnly));
    b.write(other);
    b.close();
    const LoadResult r = loadPaths({ dir.path() });
    QCOMPARE(r.runs.size(), 1);
    QCOMPARE(r.duplicates, 2);
    QStringList places;
    for (const Diagnostic& d : r.diagnostics) {
        if (d.message.contains(QStringLiteral("the same run as")))
            places << d.file.section(QLatin1Char('/'), -1) + d.pointer + QStringLiteral(" = ")
                    + d.message.section(QStringLiteral("the same run as "), 1).section(QLatin1Char(' '), 0, 2);
    }
    QCOMPARE(places.size(), 2);
    const QString first = dir.filePath(QStringLiteral("a.jsonl"));
    QCOMPARE(places[0], QStringLiteral("a.jsonl/1 = %1 at /0").arg(first));
    QCOMPARE(places[1], QStringLiteral("b.json = %1 at /0").arg(first));
}

void TestFormatRead::comparabilityTreatsMismatchAsUnknown()
{
    const json p = protocol();
    const json e = environment();
    const json doc = { { "run", scoreDocument(p, e, kDigestA, kDigestB) }, { "protocol", p }, { "environment", e } };
    json changed = doc;
    changed["protocol"]["spec"]["harness"]["name"] = "another harness";
    const RunPtr good = parse(doc).runs.value(0);
    const RunPtr bad = parse(changed).runs.value(0);
    QVERIFY(good && bad);
    QCOMPARE(good->protocolDigest, bad->protocolDigest); // the same digest named...
    const Comparability same = assessComparability(*good, *good);
    QVERIFY(same.notes.join(QLatin1Char(' ')).contains(QStringLiteral("same protocol digest")));
    const Comparability c = assessComparability(*good, *bad);
    // ...but one run's protocol does not match it: unknown, never "same"
    QVERIFY2(!c.notes.join(QLatin1Char(' ')).contains(QStringLiteral("same protocol digest")),
        qPrintable(c.notes.join(QLatin1Char('\n'))));
    QVERIFY(c.warnings.join(QLatin1Char(' ')).contains(QStringLiteral("protocol unknown")));
    QVERIFY(c.notes.join(QLatin1Char(' ')).contains(QStringLiteral("same environment digest")));
}

KIX_TEST_GUILESS_MAIN(TestFormatRead)
#include "tst_formatread.moc"
