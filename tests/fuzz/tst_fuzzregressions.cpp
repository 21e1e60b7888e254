// SPDX-License-Identifier: Apache-2.0
// Replays through the fuzz harness (fuzzharness.h) every input a fuzzer once crashed on or flagged
// (tests/data/fuzz/<target>/), and the whole seed corpus (tests/data/ and the bundled runs) through every target:
// each must be handled without a crash and without breaking the target's rule.
#include "fuzzharness.h"

#include "kix/config.h"

#include "tests/support/testmain.h"

#include <QDirIterator>
#include <QFile>
#include <QTest>

using namespace kix;

namespace {

QStringList filesUnder(const QString& dir)
{
    QStringList files;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files.append(it.next());
    files.sort();
    return files;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString runTarget(fuzz::Target target, const QByteArray& bytes)
{
    return target(reinterpret_cast<const uint8_t*>(bytes.constData()), static_cast<std::size_t>(bytes.size()));
}

} // namespace

class TestFuzzRegressions : public QObject
{
    Q_OBJECT
private slots:
    void fixtures_data();
    void fixtures();
    void seedCorpus_data();
    void seedCorpus();
    void goodInputsPass();
};

void TestFuzzRegressions::fixtures_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("path");
    std::size_t count = 0;
    const fuzz::NamedTarget* targets = fuzz::targets(&count);
    int rows = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const QString name = QLatin1String(targets[i].name);
        for (const QString& path : filesUnder(QStringLiteral(KIX_TEST_DATA_DIR "/fuzz/") + name)) {
            QTest::newRow(qPrintable(name + QLatin1Char('/') + QFileInfo(path).fileName())) << name << path;
            ++rows;
        }
    }
    if (rows == 0)
        QTest::newRow("none") << QString() << QString();
}

void TestFuzzRegressions::fixtures()
{
    QFETCH(QString, target);
    QFETCH(QString, path);
    if (target.isEmpty())
        QSKIP("no fuzz fixtures in tests/data/fuzz/");
    std::size_t count = 0;
    const fuzz::NamedTarget* targets = fuzz::targets(&count);
    for (std::size_t i = 0; i < count; ++i) {
        if (target == QLatin1String(targets[i].name)) {
            const QByteArray bytes = readAll(path);
            const QString problem = runTarget(targets[i].target, bytes);
            QVERIFY2(problem.isEmpty(), qPrintable(path + QStringLiteral(": ") + problem));
            return;
        }
    }
    QFAIL(qPrintable(QStringLiteral("tests/data/fuzz/%1 is no fuzz target").arg(target)));
}

void TestFuzzRegressions::seedCorpus_data()
{
    QTest::addColumn<QString>("path");
    QStringList files = filesUnder(QStringLiteral(KIX_TEST_DATA_DIR "/model"));
    files += filesUnder(QStringLiteral(KIX_TEST_DATA_DIR "/ui"));
    files += filesUnder(QStringLiteral(KIX_TEST_DATA_DIR "/interop")); // nvbench, gbench, pytest-benchmark
    files += filesUnder(QStringLiteral(KIX_SOURCE_DIR "/resources/runs"));
    QVERIFY(files.size() >= 40);
    for (const QString& path : files)
        QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
}

void TestFuzzRegressions::seedCorpus()
{
    QFETCH(QString, path);
    const QByteArray bytes = readAll(path);
    std::size_t count = 0;
    const fuzz::NamedTarget* targets = fuzz::targets(&count);
    for (std::size_t i = 0; i < count; ++i) {
        const QString problem = runTarget(targets[i].target, bytes);
        QVERIFY2(problem.isEmpty(), qPrintable(QLatin1String(targets[i].name) + QStringLiteral(": ") + problem));
    }
}

// Inputs that must pass do: the seed round-trips, an empty file is refused with a named error, a filter applies.
void TestFuzzRegressions::goodInputsPass()
{
    const QByteArray seed
        = readAll(QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
    QVERIFY(!seed.isEmpty());
    QVERIFY(runTarget(&fuzz::roundTrip, seed).isEmpty());
    QVERIFY(runTarget(&fuzz::document, QByteArray()).isEmpty()); // "the file is empty", named
    QVERIFY(runTarget(&fuzz::filter, QByteArray("group_norm backward")).isEmpty());
}

KIX_TEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzzregressions.moc"
