// SPDX-License-Identifier: Apache-2.0
// Everything kix writes, checked by the format's own validator: the official v1alpha1 JSON Schemas
// (shared/data/kernelindex/schemas) through python3-jsonschema, and every digest a document can check recomputed
// (shared/tools/kernelindex-conformance.py). Engine runs of every pass and dtype (`kix bench --device cpu`, a tiny
// shape), a Liger CSV import, each other tool's import, and `kix export` as .json and .jsonl. Skips cleanly without
// ../shared or without python3's jsonschema.
#include "tests/support/processes.h"
#include "tests/support/testmain.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

namespace {

using Outcome = kixtest::CommandResult;

Outcome runProcess(const QString& program, const QStringList& arguments, int timeoutMs = 300000)
{
    QProcess p;
    p.start(program, arguments);
    Outcome o;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        o.err = QStringLiteral("timed out");
        return o;
    }
    o.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    o.out = QString::fromUtf8(p.readAllStandardOutput());
    o.err = QString::fromUtf8(p.readAllStandardError());
    return o;
}

Outcome runKixProcess(const QStringList& arguments)
{
    return runProcess(QStringLiteral(KIX_BINARY), arguments);
}

QString dataPath(const QString& name)
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/") + name;
}

QStringList filesUnder(const QString& dir, const QStringList& patterns)
{
    QStringList out;
    QDirIterator it(dir, patterns, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    out.sort();
    return out;
}

} // namespace

class TestConformance : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void everythingKixWritesValidates_data();
    void everythingKixWritesValidates();

private:
    QString m_python;
    QString m_shared;
    QTemporaryDir m_dir;
};

void TestConformance::initTestCase()
{
    m_shared = qEnvironmentVariable("KIX_SHARED_DIR");
    if (m_shared.isEmpty() || !QFile::exists(m_shared + QStringLiteral("/tools/kernelindex-conformance.py"))
        || !QDir(m_shared + QStringLiteral("/data/kernelindex/schemas")).exists())
        QSKIP("KIX_SHARED_DIR does not name the project's shared/ folder with the format's schemas and validator");
    m_python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (m_python.isEmpty())
        QSKIP("python3 is not installed");
    if (runProcess(m_python, { QStringLiteral("-c"), QStringLiteral("import jsonschema") }).code != 0)
        QSKIP("python3 has no jsonschema module (Debian: python3-jsonschema)");
    QVERIFY(m_dir.isValid());
}

void TestConformance::everythingKixWritesValidates_data()
{
    QTest::addColumn<QStringList>("command"); // kix's arguments; OUT is the case's output path
    QTest::addColumn<QString>("output"); // relative to the case's folder
    QTest::addColumn<int>("minimumDocuments");
    const QString bench = QStringLiteral("bench");
    QTest::newRow("kix bench: every pass and dtype on the CPU")
        << QStringList { bench, QStringLiteral("--device"), QStringLiteral("cpu"), QStringLiteral("--shape"),
               QStringLiteral("2,8,16"), QStringLiteral("--channels-per-group"), QStringLiteral("2"),
               QStringLiteral("--pass"), QStringLiteral("forward,backward,full"), QStringLiteral("--dtype"),
               QStringLiteral("fp32,bf16,fp16"), QStringLiteral("--warmup-ms"), QStringLiteral("0.1"),
               QStringLiteral("--rep-ms"), QStringLiteral("0.3"), QStringLiteral("--out"), QStringLiteral("OUT") }
        << QStringLiteral("runs") << 9;
    QTest::newRow("kix import: Liger-Kernel CSV (speed and memory rows)") << QStringList { QStringLiteral("import"),
        dataPath(QStringLiteral("format/liger_small.csv")), QStringLiteral("--out"), QStringLiteral("OUT") }
                                                                          << QStringLiteral("runs") << 4;
    const std::pair<const char*, int> interop[] = { { "nvbench_ref.json", 1 }, { "nvbench_cmp.json", 1 },
        { "gbench_base.json", 1 }, { "gbench_new.json", 1 }, { "pytest_benchmark.json", 1 } };
    for (const auto& [fixture, least] : interop) {
        QTest::newRow(qPrintable(QStringLiteral("kix import: %1").arg(QLatin1String(fixture))))
            << QStringList { QStringLiteral("import"), dataPath(QStringLiteral("interop/") + QLatin1String(fixture)),
                   QStringLiteral("--out"), QStringLiteral("OUT") }
            << QStringLiteral("runs") << least;
    }
    QTest::newRow("kix import: nvbench into one .jsonl") << QStringList { QStringLiteral("import"),
        dataPath(QStringLiteral("interop/nvbench_ref.json")), QStringLiteral("--out"), QStringLiteral("OUT") }
                                                         << QStringLiteral("runs.jsonl") << 1;
    // Exports of what kix wrote: an engine run folder, the Liger import and the tools' imports together.
    for (const char* suffix : { "json", "jsonl" }) {
        QTest::newRow(qPrintable(QStringLiteral("kix export .%1").arg(QLatin1String(suffix)))) << QStringList {
            QStringLiteral("export"), QStringLiteral("EXPORTINPUTS"), QStringLiteral("--out"), QStringLiteral("OUT")
        } << QStringLiteral("all.") + QLatin1String(suffix) << 15;
    }
}

void TestConformance::everythingKixWritesValidates()
{
    QFETCH(QStringList, command);
    QFETCH(QString, output);
    QFETCH(int, minimumDocuments);
    const QString caseDir
        = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag())
                             .replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]+")), QStringLiteral("_")));
    QVERIFY(QDir().mkpath(caseDir));
    const QString out = QDir(caseDir).filePath(output);
    QStringList arguments;
    for (const QString& a : command) {
        if (a == QLatin1String("OUT")) {
            arguments << out;
        } else if (a == QLatin1String("EXPORTINPUTS")) {
            // what the earlier rows wrote (rows run in order): every folder of runs in this test's temporary folder
            const QStringList earlier = QDir(m_dir.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
            int added = 0;
            for (const QString& name : earlier) {
                if (!name.startsWith(QLatin1String("kix_export")) && QDir(m_dir.filePath(name) + "/runs").exists()) {
                    arguments << m_dir.filePath(name) + QStringLiteral("/runs");
                    ++added;
                }
            }
            if (added == 0)
                QSKIP("run the rows in order: the export rows export what the others wrote");
        } else {
            arguments << a;
        }
    }
    const Outcome written = runKixProcess(arguments);
    QVERIFY2(written.code == 0,
        qPrintable(QStringLiteral("kix %1 -> %2\n%3%4")
                       .arg(arguments.join(QLatin1Char(' ')))
                       .arg(written.code)
                       .arg(written.err, written.out)));

    const QStringList documents = QFileInfo(out).isDir()
        ? filesUnder(out, { QStringLiteral("*.json"), QStringLiteral("*.jsonl") })
        : QStringList { out };
    QVERIFY2(!documents.isEmpty(), qPrintable(out));
    const Outcome checked = runProcess(m_python,
        QStringList { m_shared + QStringLiteral("/tools/kernelindex-conformance.py"),
            m_shared + QStringLiteral("/data/kernelindex/schemas") }
            + documents);
    const QString report = checked.out + checked.err;
    // "docs N, schema-valid V, digests ok D/E"
    const QRegularExpressionMatch m
        = QRegularExpression(QStringLiteral("docs (\\d+), schema-valid (\\d+), digests ok (\\d+)/(\\d+)"))
              .match(report);
    QVERIFY2(m.hasMatch(), qPrintable(report));
    const int docs = m.captured(1).toInt();
    QVERIFY2(docs >= minimumDocuments, qPrintable(report));
    QVERIFY2(m.captured(2).toInt() == docs, qPrintable(report)); // 0 problems
    QVERIFY2(m.captured(3) == m.captured(4), qPrintable(report)); // every checked digest recomputes
    QVERIFY2(m.captured(4).toInt() >= docs * 2, qPrintable(report)); // protocol and environment at least
    QVERIFY2(checked.code == 0, qPrintable(report));

    // Raw samples are never inline; every evidence file a document names lies beside it with that digest.
    for (const QString& path : documents) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY2(!bytes.contains("samplesNs"), qPrintable(path));
        const QList<QByteArray> chunks = path.endsWith(QLatin1String(".jsonl")) ? bytes.split('\n') : QList { bytes };
        for (const QByteArray& chunk : chunks) {
            if (chunk.trimmed().isEmpty())
                continue;
            nlohmann::json parsed = nlohmann::json::parse(chunk.toStdString());
            const nlohmann::json all = parsed.is_array() ? parsed : nlohmann::json::array({ parsed });
            for (const nlohmann::json& doc : all) {
                const nlohmann::json::json_pointer p("/run/spec/timing/rawSamples");
                if (!doc.contains(p))
                    continue;
                const QString uri = QString::fromStdString(doc.at(p).at("uri").get<std::string>());
                QVERIFY2(!uri.contains(QLatin1Char('/')), qPrintable(uri));
                QFile evidence(QFileInfo(path).dir().filePath(uri));
                QVERIFY2(evidence.open(QIODevice::ReadOnly), qPrintable(evidence.fileName()));
                const QByteArray hash = QCryptographicHash::hash(evidence.readAll(), QCryptographicHash::Sha256);
                QCOMPARE("sha256:" + hash.toHex().toStdString(), doc.at(p).at("digest").get<std::string>());
            }
        }
    }
}

KIX_TEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
