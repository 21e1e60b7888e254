// SPDX-License-Identifier: Apache-2.0
// Exports: each format is valid and reloads equal; a failed write never corrupts what it would overwrite.
#include "model/read/documentparser.h"
#include "model/write/runwriter.h"

#include "tests/fulldisk.h"

#include "tests/support/testfiles.h"
#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace kix;

class TestRunWriter : public QObject
{
    Q_OBJECT
private slots:
    void formatsFromExtension();
    void exportsReloadEqual_data();
    void exportsReloadEqual();
    void csvHasHeaderAndQuotes();
    void nvbenchHeadlineIsAMean();
    void failedWriteKeepsTheOldFile();
    void fullDiskKeepsTheOldFile_data();
    void fullDiskKeepsTheOldFile();
};

void TestRunWriter::formatsFromExtension()
{
    QCOMPARE(exportFormatForPath(QStringLiteral("a/b.JSON")), std::optional(ExportFormat::Json));
    QCOMPARE(exportFormatForPath(QStringLiteral("b.jsonl")), std::optional(ExportFormat::JsonLines));
    QCOMPARE(exportFormatForPath(QStringLiteral("b.csv")), std::optional(ExportFormat::Csv));
    QVERIFY(!exportFormatForPath(QStringLiteral("b.txt")));
}

void TestRunWriter::exportsReloadEqual_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("json") << QStringLiteral("out.json");
    QTest::newRow("jsonl") << QStringLiteral("out.jsonl");
}

void TestRunWriter::exportsReloadEqual()
{
    QFETCH(QString, name);
    const ParseResult in = parseFile(kixtest::modelDataPath(QStringLiteral("good/array.json")));
    QCOMPARE(in.runs.size(), 2);
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    QString error;
    QVERIFY2(writeRuns(in.runs, path, *exportFormatForPath(path), &error), qPrintable(error));
    const ParseResult out = parseFile(path);
    QVERIFY(out.diagnostics.isEmpty());
    QCOMPARE(out.runs.size(), 2);
    for (int i = 0; i < 2; ++i) {
        QCOMPARE(out.runs[i]->raw, in.runs[i]->raw);
        QCOMPARE(out.runs[i]->identityKey(), in.runs[i]->identityKey());
    }
}

void TestRunWriter::csvHasHeaderAndQuotes()
{
    const ParseResult in = parseFile(kixtest::modelDataPath(QStringLiteral("good/array.json")));
    const QList<QByteArray> lines = serializeRuns(in.runs, ExportFormat::Csv).split('\n');
    QCOMPARE(lines.size(), 4); // header, two runs, final newline
    QCOMPARE(lines[0],
        QByteArray("kernel,pass,provider,gpu,workload,metric,statistic,unit,value,p20,p80,status,observed_at,file,"
                   "author,implementation,operation,project,workload_title,comparison_key"));
    QVERIFY(lines[1].startsWith("group_norm,backward,liger,NVIDIA B200,batch128-channels2048"));
    QVERIFY(lines[1].contains(",latency,median,ns,425856,425756,425956,passed,2026-02-28T00:23:31.000Z,"));
}

// nvbench's headline is the mean GPU time: the list calls it mean, never median.
void TestRunWriter::nvbenchHeadlineIsAMean()
{
    const ParseResult in = parseFile(QStringLiteral(KIX_TEST_DATA_DIR "/interop/nvbench_ref.json"));
    QVERIFY(!in.runs.isEmpty());
    const QStringList columns = listColumns();
    QVERIFY(!columns.contains(QStringLiteral("median")));
    const int statistic = int(columns.indexOf(QStringLiteral("statistic")));
    const int value = int(columns.indexOf(QStringLiteral("value")));
    QVERIFY(statistic >= 0 && value >= 0);
    for (const RunPtr& run : in.runs) {
        if (!std::isfinite(run->median))
            continue; // the skipped state
        const QStringList row = listRow(*run);
        QCOMPARE(row[statistic], QStringLiteral("mean"));
        QCOMPARE(row[value].toDouble(), run->statistic(QStringLiteral("mean")));
    }
}

void TestRunWriter::failedWriteKeepsTheOldFile()
{
    QTemporaryDir dir;
    // A name so long that the save file's temporary sibling (name + 7 characters) cannot be created, even as root.
    const QString path = dir.filePath(QString(250, QLatin1Char('r')) + QStringLiteral(".json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("precious");
    f.close();
    const ParseResult in = parseFile(kixtest::modelDataPath(QStringLiteral("good/array.json")));
    QString error;
    QVERIFY(!writeRuns(in.runs, path, ExportFormat::Json, &error));
    QVERIFY(error.contains(path));
    QCOMPARE(kixtest::readFile(path), QByteArray("precious"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // no temporary file left behind
}

void TestRunWriter::fullDiskKeepsTheOldFile_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("json") << QStringLiteral("runs.json");
    QTest::newRow("jsonl") << QStringLiteral("runs.jsonl");
    QTest::newRow("csv") << QStringLiteral("runs.csv");
}

// The disk fills up halfway through the export: the export fails and says so, the file it would have replaced
// is untouched, and no temporary file is left behind.
void TestRunWriter::fullDiskKeepsTheOldFile()
{
    QFETCH(QString, name);
    const ParseResult in = parseFile(kixtest::modelDataPath(QStringLiteral("good/array.json")));
    QCOMPARE(in.runs.size(), 2);
    const ExportFormat format = *exportFormatForPath(name);
    const QByteArray bytes = serializeRuns(in.runs, format);
    QVERIFY(bytes.size() > 200);
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    const QByteArray previous = "the previous export, which must survive\n";
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(previous);
    f.close();
    QString error;
    {
        test::FullDisk full(static_cast<rlim_t>(bytes.size() / 2));
        QVERIFY(full.ok());
        QVERIFY(!writeRuns(in.runs, path, format, &error));
    }
    QVERIFY2(error.contains(path) && error.contains(QStringLiteral("File too large")), qPrintable(error));
    QCOMPARE(kixtest::readFile(path), previous);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList { name });
    // with room again, the same export goes through
    QVERIFY2(writeRuns(in.runs, path, format, &error), qPrintable(error));
    QCOMPARE(kixtest::readFile(path), bytes);
}

KIX_TEST_GUILESS_MAIN(TestRunWriter)
#include "tst_runwriter.moc"
