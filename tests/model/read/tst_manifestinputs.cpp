// SPDX-License-Identifier: Apache-2.0
// The format's YAML manifests and submission bundles as inputs: YAML's core schema, refusals and alias bombs, the
// manifest size limit, the official examples, JSON bundles (tst_formatinputs: the catalog export).
#include "model/read/documentparser.h"
#include "model/read/runloader.h"
#include "model/read/yamlreader.h"

#include "tests/model/read/formatinputs.h"
#include "tests/support/testmain.h"

#include <QDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>

using namespace kix;
using json = nlohmann::json;
using namespace kixtest::formatinputs;

namespace {

QString shared()
{
    const QString dir = qEnvironmentVariable("KIX_SHARED_DIR");
    return dir.isEmpty() || !QDir(dir + QStringLiteral("/data/kernelindex/examples")).exists()
        ? QString()
        : dir + QStringLiteral("/data/kernelindex/examples");
}

// A BenchmarkRun in YAML, valid for the format.
QByteArray yamlRun(const QByteArray& extraLabels = {})
{
    return QByteArray("apiVersion: kernelindex.dev/v1alpha1\nkind: BenchmarkRun\nmetadata:\n  name: yaml-run\n"
                      "  labels:\n    answer: yes\n")
        + extraLabels
        + "spec:\n  implementationDigest: sha256:4444444444444444444444444444444444444444444444444444444444444444\n"
          "  workloadDigest: sha256:1111111111111111111111111111111111111111111111111111111111111111\n"
          "  protocolDigest: sha256:2222222222222222222222222222222222222222222222222222222222222222\n"
          "  environmentDigest: sha256:3333333333333333333333333333333333333333333333333333333333333333\n"
          "  status: passed\n  timing:\n    primaryStatistic: median\n    latencyNs:\n      median: 8120\n"
          "  observedAt: 2026-08-01T12:00:00Z\n";
}

} // namespace

class TestManifestInputs : public QObject
{
    Q_OBJECT
private slots:
    void yamlCoreSchema();
    void yamlRefusals();
    void yamlAliasBombs();
    void yamlManifestSize();
    void officialExamplesLoad();
    void bundleJson();
    void bundleRefusals();
};

void TestManifestInputs::yamlCoreSchema()
{
    const QByteArray yaml = "a: 2026-08-01T12:00:00Z\nb: yes\nc: no\nd: 1.0\ne: \"2.9\"\nf: 0x1F\ng: 0o17\nh: ~\n"
                            "i: True\nj: -12\nk: 1e3\nl: on\nm: '007'\nn: !!str 42\no: 12345678901234567890\n";
    const YamlReadResult r = readYaml(yaml.constData(), yaml.constData() + yaml.size());
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(text(r.value["a"]), QStringLiteral("2026-08-01T12:00:00Z")); // YAML 1.1 would make a timestamp
    QCOMPARE(text(r.value["b"]), QStringLiteral("yes")); // and a boolean
    QCOMPARE(text(r.value["c"]), QStringLiteral("no"));
    QVERIFY(r.value["d"].is_number_float() && r.value["d"] == 1.0);
    QCOMPARE(text(r.value["e"]), QStringLiteral("2.9"));
    QCOMPARE(text(r.value["f"]), QStringLiteral("31"));
    QCOMPARE(text(r.value["g"]), QStringLiteral("15"));
    QVERIFY(r.value["h"].is_null());
    QCOMPARE(text(r.value["i"]), QStringLiteral("true"));
    QCOMPARE(text(r.value["j"]), QStringLiteral("-12"));
    QCOMPARE(text(r.value["k"]), QStringLiteral("1000.0"));
    QCOMPARE(text(r.value["l"]), QStringLiteral("on"));
    QCOMPARE(text(r.value["m"]), QStringLiteral("007"));
    QCOMPARE(text(r.value["n"]), QStringLiteral("42"));
    QVERIFY(r.value["o"].is_number_unsigned());
}

void TestManifestInputs::yamlRefusals()
{
    struct Case
    {
        const char* text;
        const char* message;
    };
    const QByteArray deep = QByteArray(100, '[') + QByteArray(100, ']');
    const Case cases[] = {
        { "a: 1\nb: 2\na: 3\n", "duplicate key \"a\"" },
        { "x: {a: 1, a: 1}\n", "duplicate key \"a\"" },
        { "a: .inf\n", "not a finite number" },
        { "a: .nan\n", "not a finite number" },
        { "a: !custom 1\n", "core schema's tags only" },
        { "a: 1\n---\nb: 2\n", "more than one YAML document" },
        { "a: [1, 2\n", "not valid YAML" },
        { "? [a, b]\n: 1\n", "not a scalar" },
        { deep.constData(), "nesting deeper than 64 levels" },
    };
    for (const Case& c : cases) {
        const QByteArray text(c.text);
        const YamlReadResult r = readYaml(text.constData(), text.constData() + text.size());
        QVERIFY2(!r.ok, c.text);
        QVERIFY2(r.error.contains(QLatin1String(c.message)), qPrintable(r.error));
    }
    // through the reader: the file is named, with the line
    const ParseResult p = parseBytes("spec:\n  name: a\n  name: b\n", QStringLiteral("dup.yaml"));
    QCOMPARE(p.diagnostics.size(), 1);
    QCOMPARE(p.diagnostics.first().file, QStringLiteral("dup.yaml"));
    QCOMPARE(p.diagnostics.first().line, 3);
}

void TestManifestInputs::yamlAliasBombs()
{
    // billion laughs: nine levels of nine aliases each
    QByteArray laughs = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
    for (int level = 1; level < 10; ++level) {
        laughs += QStringLiteral("a%1: &a%1 [").arg(level).toLatin1();
        for (int i = 0; i < 9; ++i)
            laughs += (i ? ", *a" : "*a") + QByteArray::number(level - 1);
        laughs += "]\n";
    }
    YamlReadResult r = readYaml(laughs.constData(), laughs.constData() + laughs.size());
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(QLatin1String("more than")), qPrintable(r.error));
    // fewer than 100 aliases that still expand past the node budget
    QByteArray wide = "a: &a [";
    for (int i = 0; i < 2000; ++i)
        wide += "x, ";
    wide += "x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
            "d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n";
    YamlLimits limits;
    r = readYaml(wide.constData(), wide.constData() + wide.size(), limits);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(QLatin1String("nodes once aliases are expanded")), qPrintable(r.error));
    // exactly 100 aliases of a small anchor: allowed, and expanded
    QByteArray hundred = "a: &a {k: v}\nb: [";
    for (int i = 0; i < 100; ++i)
        hundred += i ? ", *a" : "*a";
    hundred += "]\n";
    r = readYaml(hundred.constData(), hundred.constData() + hundred.size());
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.value["b"].size(), std::size_t(100));
    QCOMPARE(text(r.value["b"][99]["k"]), QStringLiteral("v"));
    hundred.replace("]\n", ", *a]\n");
    r = readYaml(hundred.constData(), hundred.constData() + hundred.size());
    QVERIFY(!r.ok);
    QVERIFY(r.error.contains(QLatin1String("more than 100 aliases")));
}

void TestManifestInputs::yamlManifestSize()
{
    // a manifest past the format's 1 MiB is refused with the file named; the good one beside it loads
    const ParseResult good = parseBytes(yamlRun(), QStringLiteral("run.yaml"));
    QCOMPARE(good.runs.size(), 1);
    QVERIFY(!good.hasErrors());
    QCOMPARE(text(documentOf(good.runs.first())["metadata"]["labels"]["answer"]), QStringLiteral("yes"));
    QCOMPARE(text(documentOf(good.runs.first())["spec"]["observedAt"]), QStringLiteral("2026-08-01T12:00:00Z"));
    const ParseResult big
        = parseBytes(yamlRun("    big: " + QByteArray((1 << 20) + 10, 'x') + "\n"), QStringLiteral("big.yaml"));
    QVERIFY(big.runs.isEmpty());
    QVERIFY(hasMessage(big.diagnostics, QStringLiteral("more than the format's limit of 1048576"), true));
    QCOMPARE(big.diagnostics.first().file, QStringLiteral("big.yaml"));
    ParseLimits limits;
    limits.maxYamlBytes = 100;
    const ParseResult file = parseBytes(yamlRun(), QStringLiteral("run.yaml"), limits);
    QVERIFY(hasMessage(file.diagnostics, QStringLiteral("more than the limit of 100"), true));
}

void TestManifestInputs::officialExamplesLoad()
{
    const QString examples = shared();
    if (examples.isEmpty())
        QSKIP("the format's examples are not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    const QStringList valid = QDir(examples + QStringLiteral("/valid")).entryList({ QStringLiteral("*.yaml") });
    QVERIFY(valid.size() >= 14);
    int runs = 0;
    for (const QString& name : valid) {
        const ParseResult r = parseFile(examples + QStringLiteral("/valid/") + name);
        QVERIFY2(!r.hasErrors(), qPrintable(name + QLatin1String(": ") + r.diagnostics.value(0).toString()));
        runs += int(r.runs.size());
        if (name == QLatin1String("example-fixture.yaml")) {
            QCOMPARE(r.runs.size(), 1);
            QCOMPARE(r.runs.first()->pointer, QStringLiteral("/runs/0"));
            const json doc = documentOf(r.runs.first());
            QCOMPARE(text(doc["protocol"]["metadata"]["name"]), QStringLiteral("example-fixed-clock-median"));
            QCOMPARE(text(doc["environment"]["spec"]["software"]["driver"]),
                QStringLiteral("580.00")); // a quoted version stays a string
        }
    }
    QCOMPARE(runs, 2); // benchmark-run.yaml and the fixture's one run; the other kinds hold no run
    const ParseResult dup = parseFile(examples + QStringLiteral("/invalid/duplicate-key.yaml"));
    QVERIFY(hasMessage(dup.diagnostics, QStringLiteral("duplicate key \"name\""), true));
}

void TestManifestInputs::bundleJson()
{
    // a bundle in JSON: the YAML fixture's structure, made here
    const QByteArray run = yamlRun();
    const YamlReadResult parsed = readYaml(run.constData(), run.constData() + run.size());
    QVERIFY(parsed.ok);
    json protocol = { { "apiVersion", "kernelindex.dev/v1alpha1" }, { "kind", "BenchmarkProtocol" },
        { "metadata", { { "name", "p" } } },
        { "spec",
            { { "harness", { { "name", "h" } } },
                { "measurement", { { "timer", "wall_clock" }, { "primaryStatistic", "median" } } } } } };
    json bundle = { { "projects", json::array() },
        { "runs", { { { "run", parsed.value }, { "protocol", protocol } }, parsed.value } } };
    const ParseResult r = parseBytes(QByteArray::fromStdString(bundle.dump(2)), QStringLiteral("bundle.json"));
    QVERIFY2(!r.hasErrors(), qPrintable(r.diagnostics.value(0).toString()));
    QCOMPARE(r.runs.size(), 2);
    QCOMPARE(r.runs[0]->pointer, QStringLiteral("/runs/0"));
    QCOMPARE(r.runs[1]->pointer, QStringLiteral("/runs/1"));
    QCOMPARE(text(documentOf(r.runs[0])["protocol"]["metadata"]["name"]), QStringLiteral("p"));
    // the same bundle as YAML (JSON is YAML 1.2)
    const ParseResult y = parseBytes(QByteArray::fromStdString(bundle.dump(2)), QStringLiteral("bundle.yaml"));
    QCOMPARE(y.runs.size(), 2);
}

void TestManifestInputs::bundleRefusals()
{
    const QByteArray run = yamlRun();
    const json good = readYaml(run.constData(), run.constData() + run.size()).value;
    json big = good;
    big["metadata"]["labels"]["big"] = std::string((1 << 20) + 1, 'x');
    const json bundle = { { "runs", { { { "run", big } }, { { "run", good } } } }, { "extras", json::array() } };
    const ParseResult r = parseBytes(QByteArray::fromStdString(bundle.dump()), QStringLiteral("b.json"));
    QCOMPARE(r.runs.size(), 1); // the good run beside the refused one
    QCOMPARE(r.runs.first()->pointer, QStringLiteral("/runs/1"));
    QVERIFY(std::any_of(r.diagnostics.begin(), r.diagnostics.end(), [](const Diagnostic& d) {
        return d.isError() && d.pointer == QLatin1String("/runs/0/run") && d.message.contains(QLatin1String("1048576"));
    }));
    QVERIFY(hasMessage(r.diagnostics, QStringLiteral("\"extras\" is not one of a bundle's lists"), false));
    const ParseResult empty = parseBytes(R"({"workloads": [], "runs": []})", QStringLiteral("e.json"));
    QVERIFY(hasMessage(empty.diagnostics, QStringLiteral("the bundle holds no runs"), true));
    // a JSON bundle with a duplicate key is read (tolerant), and says so
    const ParseResult dup = parseBytes(R"({"runs": [], "runs": []})", QStringLiteral("d.json"));
    QVERIFY(hasMessage(dup.diagnostics, QStringLiteral("duplicate key"), false));
}

KIX_TEST_GUILESS_MAIN(TestManifestInputs)
#include "tst_manifestinputs.moc"
