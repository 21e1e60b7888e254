// SPDX-License-Identifier: Apache-2.0
// The one benchmark request grammar (sweeps) and its expansion into specs, shared by `kix bench` and the
// Benchmark panel.
#include "engine/benchmarkrequest.h"

#include "tests/support/testmain.h"

#include <QTest>

using namespace kix;

class TestBenchmarkRequest : public QObject
{
    Q_OBJECT

private slots:
    void sweepValues_data();
    void sweepValues();
    void badSweepValues_data();
    void badSweepValues();
    void sweepAxis();
    void expandsTheCrossProductInOrder();
    void emptyListsMeanTheBaseSpec();
};

void TestBenchmarkRequest::sweepValues_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<qint64>>("expected");
    QTest::newRow("list") << "4,8,12" << QList<qint64> { 4, 8, 12 };
    QTest::newRow("list with spaces") << " 32, 64 ,128" << QList<qint64> { 32, 64, 128 };
    QTest::newRow("geometric") << "32,64,...,2048" << QList<qint64> { 32, 64, 128, 256, 512, 1024, 2048 };
    QTest::newRow("arithmetic") << "1,2,...,5" << QList<qint64> { 1, 2, 3, 4, 5 };
    QTest::newRow("arithmetic step") << "100,250,...,850" << QList<qint64> { 100, 250, 400, 550, 700, 850 };
    QTest::newRow("geometric wins a tie") << "100,300,...,900" << QList<qint64> { 100, 300, 900 };
    QTest::newRow("single") << "7" << QList<qint64> { 7 };
}

void TestBenchmarkRequest::sweepValues()
{
    QFETCH(QString, text);
    QFETCH(QList<qint64>, expected);
    QList<qint64> values;
    QString error;
    QVERIFY2(parseSweepValues(text, values, error), qPrintable(error));
    QCOMPARE(values, expected);
}

void TestBenchmarkRequest::badSweepValues_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("ellipsis first") << "32,...,64"
                                    << "expected A,B,...,Z";
    QTest::newRow("descending") << "8,4,...,2"
                                << "expected A,B,...,Z";
    QTest::newRow("unreachable") << "3,5,...,10"
                                 << "reaches neither";
    QTest::newRow("empty") << ""
                           << "no values";
    QTest::newRow("zero") << "0,1"
                          << "not a positive integer";
    QTest::newRow("word") << "32,x"
                          << "'x' is not a positive integer";
}

void TestBenchmarkRequest::badSweepValues()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    QList<qint64> values;
    QString error;
    QVERIFY(!parseSweepValues(text, values, error));
    QVERIFY2(error.contains(message), qPrintable(error));
}

void TestBenchmarkRequest::sweepAxis()
{
    SweepAxis axis;
    QString error;
    QVERIFY2(parseSweepAxis(QStringLiteral("C=32,64,...,256"), axis, error), qPrintable(error));
    QCOMPARE(axis.key, QStringLiteral("channels"));
    QCOMPARE(axis.values, (QList<qint64> { 32, 64, 128, 256 }));
    QVERIFY(parseSweepAxis(QStringLiteral("channels-per-group=2,4"), axis, error));
    QCOMPARE(axis.key, QStringLiteral("channels_per_group"));
    QVERIFY(!parseSweepAxis(QStringLiteral("depth=1,2"), axis, error));
    QVERIFY2(error.contains(QStringLiteral("unknown key 'depth'")), qPrintable(error));
    QVERIFY(!parseSweepAxis(QStringLiteral("32,64"), axis, error));
    QVERIFY2(error.contains(QStringLiteral("KEY=")), qPrintable(error));
}

void TestBenchmarkRequest::expandsTheCrossProductInOrder()
{
    BenchmarkRequest request;
    request.base.batch = 2;
    request.base.channels = 8;
    request.base.hidden = 16;
    request.base.device = QStringLiteral("cpu");
    request.base.timing.repMs = 7;
    request.passes = { Pass::Forward, Pass::Backward };
    request.dtypes = { DType::F32, DType::BF16 };
    request.implementations = { QStringLiteral("a"), QStringLiteral(" b ") };
    SweepAxis channels { QStringLiteral("channels"), { 4, 8, 16 } };
    SweepAxis batch { QStringLiteral("batch"), { 1, 3 } };
    request.sweeps = { channels, batch };
    const QVector<BenchmarkSpec> specs = expandRequest(request);
    QCOMPARE(specs.size(), 2 * 3 * 2 * 2 * 2);
    // passes outermost, then channels, then batch, then dtype, then implementation
    QCOMPARE(specs[0].pass, Pass::Forward);
    QCOMPARE(specs[0].channels, qint64(4));
    QCOMPARE(specs[0].batch, qint64(1));
    QCOMPARE(specs[0].dtype, DType::F32);
    QCOMPARE(specs[0].implementation, QStringLiteral("a"));
    QCOMPARE(specs[1].implementation, QStringLiteral("b"));
    QCOMPARE(specs[2].dtype, DType::BF16);
    QCOMPARE(specs[4].batch, qint64(3));
    QCOMPARE(specs[8].channels, qint64(8));
    QCOMPARE(specs[24].pass, Pass::Backward);
    for (const BenchmarkSpec& s : specs) {
        QCOMPARE(s.hidden, qint64(16));
        QCOMPARE(s.device, QStringLiteral("cpu"));
        QCOMPARE(s.timing.repMs, 7.0);
    }
    // every combination exactly once
    QSet<QString> seen;
    for (const BenchmarkSpec& s : specs)
        seen.insert(passName(s.pass) + s.workloadSlug() + s.implementation);
    QCOMPARE(seen.size(), specs.size());
}

void TestBenchmarkRequest::emptyListsMeanTheBaseSpec()
{
    BenchmarkRequest request;
    request.base.pass = Pass::Full;
    request.base.dtype = DType::F16;
    request.base.implementation = QStringLiteral("x");
    const QVector<BenchmarkSpec> specs = expandRequest(request);
    QCOMPARE(specs.size(), 1);
    QCOMPARE(specs[0].pass, Pass::Full);
    QCOMPARE(specs[0].dtype, DType::F16);
    QCOMPARE(specs[0].implementation, QStringLiteral("x"));
    QCOMPARE(specs[0].channels, request.base.channels);
}

KIX_TEST_GUILESS_MAIN(TestBenchmarkRequest)
#include "tst_benchmarkrequest.moc"
