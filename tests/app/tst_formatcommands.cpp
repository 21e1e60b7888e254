// SPDX-License-Identifier: Apache-2.0
// kix validate --strict and kix export --bundle, in-process: the format's own examples and the catalog-export
// fixture, and the bundle kix writes checked by validate --strict and (when ../shared is there) the official
// validator.
#include "app/commands/commands.h"

#include "tests/support/processes.h"
#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix::cli;

namespace {

using Result = kixtest::CommandResult;

Result runFormatCommand(const char* command, const QStringList& args)
{
    QString out, err;
    QTextStream o(&out), e(&err);
    const int code = runCommand(QLatin1String(command), args, o, e);
    o.flush();
    e.flush();
    return { code, out, err };
}

QString fixture()
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/model/catalog/catalog-fixture.jsonl");
}

QString shared()
{
    const QString dir = qEnvironmentVariable("KIX_SHARED_DIR");
    return dir.isEmpty() || !QDir(dir + QStringLiteral("/data/kernelindex")).exists() ? QString() : dir;
}

} // namespace

class TestFormatCommands : public QObject
{
    Q_OBJECT
private slots:
    void strictOnExamples();
    void strictOnCatalog();
    void defaultStaysTolerant();
    void exportBundle();
    void exportBundleLeavesOutOldDialect();
};

void TestFormatCommands::strictOnExamples()
{
    const QString dir = shared();
    if (dir.isEmpty())
        QSKIP("the format's examples are not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    const QString examples = dir + QStringLiteral("/data/kernelindex/examples");
    for (const QString& name : QDir(examples + QStringLiteral("/valid")).entryList({ QStringLiteral("*.yaml") })) {
        const Result r
            = runFormatCommand("validate", { QStringLiteral("--strict"), examples + QStringLiteral("/valid/") + name });
        QVERIFY2(r.code == 0, qPrintable(name + QLatin1String(": ") + r.out));
        QVERIFY2(!r.out.contains(QLatin1String(": error: ")), qPrintable(r.out));
    }
    for (const QString& name : QDir(examples + QStringLiteral("/invalid")).entryList({ QStringLiteral("*.yaml") })) {
        const Result r = runFormatCommand(
            "validate", { QStringLiteral("--strict"), examples + QStringLiteral("/invalid/") + name });
        QVERIFY2(r.code == 1, qPrintable(name));
        QVERIFY2(r.out.contains(name + QLatin1String(": error: ")), qPrintable(r.out));
    }
    // a folder: every file, the invalid ones named
    const Result all = runFormatCommand("validate", { QStringLiteral("--strict"), examples });
    QCOMPARE(all.code, 1);
    QCOMPARE(all.out.count(QLatin1String(": error: ")), 4);
    QVERIFY(all.err.contains(QLatin1String("4 deviations from v1alpha1")));
}

void TestFormatCommands::strictOnCatalog()
{
    const Result r = runFormatCommand("validate", { QStringLiteral("--strict"), fixture() });
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY(r.err.contains(QLatin1String("18 documents in 1 files; 0 deviations from v1alpha1, 6 resources of kinds "
                                         "not checked")));
    QVERIFY(r.out.contains(QLatin1String("kind ServingRun not checked")));
}

void TestFormatCommands::defaultStaysTolerant()
{
    // a field v1alpha1 does not know: --strict names it, the default reading loads the run
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("extra.json"));
    QFile source(QStringLiteral(KIX_TEST_DATA_DIR "/model/good/bare_run.json"));
    QVERIFY(source.open(QIODevice::ReadOnly));
    nlohmann::json doc = nlohmann::json::parse(source.readAll().toStdString());
    doc["spec"]["kixEngine"] = "cpu";
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(doc.dump()));
    f.close();
    const Result strict = runFormatCommand("validate", { QStringLiteral("--strict"), path });
    QCOMPARE(strict.code, 1);
    QVERIFY2(strict.out.contains(QLatin1String("/spec/kixEngine: unknown field")), qPrintable(strict.out));
    const Result tolerant = runFormatCommand("validate", { path });
    QCOMPARE(tolerant.code, 0);
    QVERIFY(tolerant.err.startsWith(QLatin1String("1 runs loaded")));
}

void TestFormatCommands::exportBundle()
{
    QTemporaryDir dir;
    const QString bundle = dir.filePath(QStringLiteral("bundle.json"));
    const Result exported = runFormatCommand("export", { fixture(), QStringLiteral("--bundle"), bundle });
    // (exit 1 while the run extractor refuses the fixture's score-only run: that run is named, not written)
    QVERIFY2(exported.code == 0 || exported.err.contains(QLatin1String(": error: /12/run")), qPrintable(exported.err));
    QVERIFY(QFileInfo::exists(bundle));
    const Result listed = runFormatCommand("list", { fixture() });
    const int loaded = int(listed.out.count(QLatin1Char('\n'))) - 1; // the header
    QVERIFY(exported.out.contains(QStringLiteral("wrote %1 runs").arg(loaded)));
    QFile f(bundle);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const nlohmann::json b = nlohmann::json::parse(f.readAll().toStdString());
    QCOMPARE(int(b["runs"].size()), loaded);
    QVERIFY(b["runs"][0].contains("protocol") && b["runs"][0].contains("environment"));
    QVERIFY(!b["workloads"].empty() && !b["operations"].empty() && !b["projects"].empty());
    // implementations are {projectSlug, manifest}, the slug one of the projects' names
    const nlohmann::json& impl = b["implementations"][0];
    bool projectKnown = false;
    for (const auto& p : b["projects"])
        projectKnown = projectKnown || p["metadata"]["name"] == impl["projectSlug"];
    QVERIFY(projectKnown);
    QCOMPARE(impl["manifest"]["kind"].get<std::string>(), std::string("ImplementationRevision"));
    // the format accepts it, and kix reads it back
    const Result strict = runFormatCommand("validate", { QStringLiteral("--strict"), bundle });
    QVERIFY2(strict.code == 0, qPrintable(strict.out));
    const Result back = runFormatCommand("list", { bundle });
    QCOMPARE(back.code, 0);
    QVERIFY(back.err.contains(QStringLiteral("%1 of %1 runs").arg(loaded)));
    // YAML by extension: the same text, read back as YAML
    const QString yaml = dir.filePath(QStringLiteral("bundle.yaml"));
    runFormatCommand("export", { fixture(), QStringLiteral("--bundle"), yaml });
    QVERIFY(runFormatCommand("list", { yaml }).err.contains(QStringLiteral("%1 of %1 runs").arg(loaded)));
    const QString root = shared();
    if (root.isEmpty() || QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
        QSKIP("the official validator is not available (KIX_SHARED_DIR)");
    QProcess p;
    p.start(QStringLiteral("python3"),
        { root + QStringLiteral("/tools/kernelindex-conformance.py"),
            root + QStringLiteral("/data/kernelindex/schemas"), bundle });
    QVERIFY(p.waitForFinished(120000));
    const QByteArray said = p.readAllStandardOutput();
    if (said.contains("No module named"))
        QSKIP("python3 has no jsonschema");
    QVERIFY2(p.exitCode() == 0, said.constData());
}

void TestFormatCommands::exportBundleLeavesOutOldDialect()
{
    // kix 0.1.0's own dialect (samples inline, units outside the format's pattern) is not written into a bundle
    QTemporaryDir dir;
    const QString old = dir.filePath(QStringLiteral("old.json"));
    QFile source(QStringLiteral(KIX_TEST_DATA_DIR "/model/good/bare_run.json"));
    QVERIFY(source.open(QIODevice::ReadOnly));
    nlohmann::json doc = nlohmann::json::parse(source.readAll().toStdString());
    doc["spec"]["timing"]["samplesNs"] = { 1, 2, 3 };
    QFile f(old);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(doc.dump()));
    f.close();
    const QString bundle = dir.filePath(QStringLiteral("b.json"));
    const Result r = runFormatCommand("export", { old, fixture(), QStringLiteral("--bundle"), bundle });
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(QLatin1String("left out of the bundle: ") + old), qPrintable(r.err));
    QVERIFY(r.err.contains(QLatin1String("samplesNs")));
    QCOMPARE(runFormatCommand("validate", { QStringLiteral("--strict"), bundle }).code, 0);
}

KIX_TEST_GUILESS_MAIN(TestFormatCommands)
#include "tst_formatcommands.moc"
