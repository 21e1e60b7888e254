// SPDX-License-Identifier: Apache-2.0
// The kernelindex digest pinned to values from outside kix: the seed's protocolDigest and environmentDigest, the
// digests the format's own examples name (shared/data/kernelindex/examples/valid), and every digest of the public
// catalog when a decompressed export is at hand (KIX_CATALOG_JSONL, else /tmp/catalog/catalog.jsonl).
#include "model/format/digest.h"

#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

#include <cstring>
#include <map>

using kix::format::kernelindexDigest;
using kix::format::sha256Digest;
using nlohmann::json;

namespace {

QString sharedDir()
{
    const QString shared = qEnvironmentVariable("KIX_SHARED_DIR");
    return !shared.isEmpty() && QDir(shared).exists() ? shared : QString();
}

json readJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return json();
    return json::parse(file.readAll().toStdString(), nullptr, false);
}

// The format's examples are YAML: python3 with PyYAML turns them into JSON (timestamps kept as the strings they
// are, as the format reads them). Null when python3 or PyYAML is missing.
json yamlAsJson(const QString& path)
{
    const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (python.isEmpty())
        return json();
    const char* script = "import json, sys, yaml\n"
                         "class L(yaml.SafeLoader): pass\n"
                         "L.yaml_implicit_resolvers = {k: [(t, r) for t, r in v if t != 'tag:yaml.org,2002:timestamp']"
                         " for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}\n"
                         "print(json.dumps(yaml.load(open(sys.argv[1], encoding='utf-8'), Loader=L)))\n";
    QProcess p;
    p.start(python, { QStringLiteral("-c"), QString::fromLatin1(script), path });
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return json();
    return json::parse(p.readAllStandardOutput().toStdString(), nullptr, false);
}

QString catalogPath()
{
    const QString configured = qEnvironmentVariable("KIX_CATALOG_JSONL");
    const QString path = configured.isEmpty() ? QStringLiteral("/tmp/catalog/catalog.jsonl") : configured;
    return QFile::exists(path) ? path : QString();
}

} // namespace

class TestKernelindexDigest : public QObject
{
    Q_OBJECT
private slots:
    void bytesDigest();
    void md5Vectors();
    void onlyApiVersionKindAndSpecCount();
    void seed_data();
    void seed();
    void formatExamples_data();
    void formatExamples();
    void catalog();
};

void TestKernelindexDigest::bytesDigest()
{
    // FIPS 180-2's SHA-256 of "abc".
    QCOMPARE(
        sha256Digest("abc"), std::string("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
}

void TestKernelindexDigest::md5Vectors()
{
    // RFC 1321, appendix A.5
    auto md5 = [](const char* text) {
        unsigned char hash[16];
        kix::format::md5Bytes(text, std::strlen(text), hash);
        return QByteArray(reinterpret_cast<const char*>(hash), 16).toHex();
    };
    QCOMPARE(md5(""), QByteArray("d41d8cd98f00b204e9800998ecf8427e"));
    QCOMPARE(md5("abc"), QByteArray("900150983cd24fb0d6963f7d28e17f72"));
    QCOMPARE(md5("12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
        QByteArray("57edf4a22be3c955ac49da2e2107b67a"));
}

void TestKernelindexDigest::onlyApiVersionKindAndSpecCount()
{
    const json a = { { "apiVersion", "kernelindex.dev/v1alpha1" }, { "kind", "BenchmarkProtocol" },
        { "metadata", { { "name", "a" } } }, { "spec", { { "x", 1 } } } };
    json b = a;
    b["metadata"]["name"] = "b";
    b["metadata"]["labels"] = { { "k", "v" } };
    QCOMPARE(kernelindexDigest(a), kernelindexDigest(b));
    b["spec"]["x"] = 1.0; // the same number in JCS
    QCOMPARE(kernelindexDigest(a), kernelindexDigest(b));
    b["spec"]["x"] = 2;
    QVERIFY(kernelindexDigest(a) != kernelindexDigest(b));
    b = a;
    b["kind"] = "ExecutionEnvironment";
    QVERIFY(kernelindexDigest(a) != kernelindexDigest(b));
    // sha256 over {"apiVersion":...,"kind":...,"spec":{"x":1}} exactly
    QCOMPARE(kernelindexDigest(a),
        sha256Digest(R"({"apiVersion":"kernelindex.dev/v1alpha1","kind":"BenchmarkProtocol","spec":{"x":1}})"));
}

void TestKernelindexDigest::seed_data()
{
    QTest::addColumn<QString>("resource");
    QTest::addColumn<QString>("digestField");
    QTest::newRow("protocol") << QStringLiteral("protocol") << QStringLiteral("protocolDigest");
    QTest::newRow("environment") << QStringLiteral("environment") << QStringLiteral("environmentDigest");
}

void TestKernelindexDigest::seed()
{
    QFETCH(QString, resource);
    QFETCH(QString, digestField);
    const QString shared = sharedDir();
    if (shared.isEmpty())
        QSKIP("KIX_SHARED_DIR is not set to the project's shared/ folder");
    const QStringList seeds = QDir(shared + QStringLiteral("/data/seed")).entryList({ QStringLiteral("*.json") });
    if (seeds.isEmpty())
        QSKIP("no seed document in shared/data/seed");
    for (const QString& name : seeds) {
        const json doc = readJson(shared + QStringLiteral("/data/seed/") + name);
        QVERIFY2(doc.is_object(), qPrintable(name));
        const std::string expected = doc.at("run").at("spec").at(digestField.toStdString()).get<std::string>();
        QCOMPARE(kernelindexDigest(doc.at(resource.toStdString())), expected);
    }
}

void TestKernelindexDigest::formatExamples_data()
{
    QTest::addColumn<QString>("referrer");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("referred");
    // Where one official example names another by digest.
    QTest::newRow("run -> protocol") << "benchmark-run"
                                     << "/spec/protocolDigest"
                                     << "benchmark-protocol";
    QTest::newRow("run -> environment") << "benchmark-run"
                                        << "/spec/environmentDigest"
                                        << "execution-environment";
    QTest::newRow("run -> workload") << "benchmark-run"
                                     << "/spec/workloadDigest"
                                     << "workload-case";
    QTest::newRow("workload -> operation") << "workload-case"
                                           << "/spec/operationSpecDigest"
                                           << "operation-spec";
    QTest::newRow("implementation -> operation") << "implementation-revision"
                                                 << "/spec/operation/specDigest"
                                                 << "operation-spec";
    QTest::newRow("serving run -> model") << "serving-run"
                                          << "/spec/modelDigest"
                                          << "model-revision";
}

void TestKernelindexDigest::formatExamples()
{
    QFETCH(QString, referrer);
    QFETCH(QString, pointer);
    QFETCH(QString, referred);
    const QString shared = sharedDir();
    if (shared.isEmpty())
        QSKIP("KIX_SHARED_DIR is not set to the project's shared/ folder");
    const QString dir = shared + QStringLiteral("/data/kernelindex/examples/valid/");
    if (!QFile::exists(dir + referrer + QStringLiteral(".yaml")))
        QSKIP("the format's examples are not in shared/data/kernelindex");
    const json from = yamlAsJson(dir + referrer + QStringLiteral(".yaml"));
    const json to = yamlAsJson(dir + referred + QStringLiteral(".yaml"));
    if (!from.is_object() || !to.is_object())
        QSKIP("python3 with PyYAML is needed to read the YAML examples");
    const json::json_pointer p(pointer.toStdString());
    if (!from.contains(p))
        QSKIP("this example names no such digest in this copy of the format");
    QCOMPARE(kernelindexDigest(to), from.at(p).get<std::string>());
}

void TestKernelindexDigest::catalog()
{
    const QString path = catalogPath();
    if (path.isEmpty())
        QSKIP("no decompressed catalog export (set KIX_CATALOG_JSONL, or /tmp/catalog/catalog.jsonl)");
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    std::map<std::string, int> checked, matched;
    const auto check = [&](const char* what, const json& resource, const json& expected) {
        if (!expected.is_string())
            return;
        ++checked[what];
        if (kernelindexDigest(resource) == expected.get<std::string>())
            ++matched[what];
        else if (checked[what] - matched[what] <= 3)
            qWarning("%s: %s does not recompute", what, expected.get<std::string>().c_str());
    };
    while (!file.atEnd()) {
        const QByteArray line = file.readLine();
        // only the tables that carry manifests and their digests
        if (!line.contains("\"benchmark_runs\"") && !line.contains("\"workloads\"")
            && !line.contains("\"implementations\"") && !line.contains("\"operations\""))
            continue;
        const json entry = json::parse(line.toStdString(), nullptr, false);
        if (!entry.is_object() || !entry.contains("row"))
            continue;
        const std::string table = entry.value("table", std::string());
        const json& row = entry["row"];
        if (table == "benchmark_runs" && row.contains("manifest")) {
            const json& m = row["manifest"];
            const json& spec = m["run"]["spec"];
            check("runDigest", m["run"], row.value("runDigest", json()));
            check("protocolDigest", m["protocol"], spec.value("protocolDigest", json()));
            check("environmentDigest", m["environment"], spec.value("environmentDigest", json()));
        } else if (table == "workloads" && row.contains("manifest")) {
            check("workloadDigest", row["manifest"], row.value("workloadDigest", json()));
        } else if (table == "implementations" && row.contains("manifest")) {
            check("implementationDigest", row["manifest"], row.value("implementationDigest", json()));
        } else if (table == "operations" && row.contains("manifest")) {
            check("semanticDigest", row["manifest"], row.value("semanticDigest", json()));
        }
    }
    if (checked.empty())
        QSKIP("the catalog file has no digests to check");
    for (const auto& [what, n] : checked) {
        qInfo("%s: %d of %d recompute", what.c_str(), matched[what], n);
        QCOMPARE(matched[what], n);
    }
}

KIX_TEST_GUILESS_MAIN(TestKernelindexDigest)
#include "tst_kernelindexdigest.moc"
