// SPDX-License-Identifier: Apache-2.0
// The one CSV writer: quoting that CsvReader reads back, used by the runs export and the comparison report alike.
#include "model/compare/comparisonreport.h"
#include "model/read/csvreader.h"
#include "model/write/csvwriter.h"
#include "model/write/jsonnumber.h"
#include "model/write/runwriter.h"
#include "model/write/texttable.h"

#include "tests/model/runfactory.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace kix;

namespace {

// Every record of `bytes`, as strings.
QVector<QStringList> readBack(const QByteArray& bytes)
{
    QVector<QStringList> records;
    CsvReader reader(bytes);
    CsvRecord record;
    while (reader.next(record)) {
        if (record.blank())
            continue;
        QStringList fields;
        for (const CsvField& f : record.fields)
            fields << QString::fromStdString(f.text);
        records << fields;
    }
    return records;
}

// The value of `column` in the first data row that has one.
QString cell(const QVector<QStringList>& records, const QString& column, int row = 1)
{
    const int at = int(records.value(0).indexOf(column));
    return at < 0 ? QStringLiteral("<no column %1>").arg(column) : records.value(row).value(at);
}

const QString kAwkward = QStringLiteral("liger, \"fused\"\nv2\r");

} // namespace

class TestCsvWriter : public QObject
{
    Q_OBJECT
private slots:
    void quoting_data();
    void quoting();
    void lineRoundTrips();
    void runsAndComparisonQuoteAlike();
    void longListIsBuiltInPartsInOrder();
    void jsonNumbers();
};

void TestCsvWriter::quoting_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("plain") << QStringLiteral("group_norm") << QByteArray("group_norm");
    QTest::newRow("empty") << QString() << QByteArray("");
    QTest::newRow("comma") << QStringLiteral("a,b") << QByteArray("\"a,b\"");
    QTest::newRow("quote") << QStringLiteral("say \"hi\"") << QByteArray("\"say \"\"hi\"\"\"");
    QTest::newRow("newline") << QStringLiteral("a\nb") << QByteArray("\"a\nb\"");
    QTest::newRow("carriage return") << QStringLiteral("a\rb") << QByteArray("\"a\rb\"");
    QTest::newRow("utf-8") << QStringLiteral("1.5×") << QByteArray("1.5\xc3\x97");
}

void TestCsvWriter::quoting()
{
    QFETCH(QString, field);
    QFETCH(QByteArray, expected);
    QCOMPARE(csvField(field), expected);
}

void TestCsvWriter::lineRoundTrips()
{
    const QStringList fields
        = { QStringLiteral("plain"), QString(), kAwkward, QStringLiteral("1.5×"), QStringLiteral(" spaced ") };
    const QByteArray line = csvLine(fields);
    QVERIFY(line.endsWith('\n'));
    const QVector<QStringList> records = readBack(line + csvLine(fields));
    QCOMPARE(records.size(), 2);
    QCOMPARE(records[0], fields);
    QCOMPARE(records[1], fields);
}

void TestCsvWriter::runsAndComparisonQuoteAlike()
{
    const RunList runs = { kixtest::makeRun(QStringLiteral("huggingface"), QStringLiteral("NVIDIA B200"), 1024, 2000),
        kixtest::makeRun(kAwkward, QStringLiteral("NVIDIA B200"), 1024, 1000) };
    const QVector<QStringList> listed = readBack(serializeRuns(runs, ExportFormat::Csv));
    QCOMPARE(listed.size(), 3);
    QCOMPARE(cell(listed, QStringLiteral("provider"), 2), kAwkward);

    const Comparison comparison = compareRuns(runs, Baseline::ofProviders({ QStringLiteral("huggingface") }), 0.05);
    QCOMPARE(comparison.pairs.size(), 1);
    const QVector<QStringList> compared = readBack(comparisonToCsv(comparison));
    QCOMPARE(compared.size(), 2);
    QCOMPARE(cell(compared, QStringLiteral("provider")), kAwkward);
    QCOMPARE(compared[0].size(), compared[1].size());
}

// A list long enough to be built in parts on several threads (kix list, CSV export) is the table built row by row:
// same rows in the same order, columns as wide as the widest cell in any part.
void TestCsvWriter::longListIsBuiltInPartsInOrder()
{
    RunList runs;
    const int count = 50000;
    for (int i = 0; i < count; ++i) {
        const QString provider
            = i == count - 7 ? QStringLiteral("a provider wider than all the others") : QStringLiteral("p%1").arg(i);
        runs.append(kixtest::makeRun(provider, QStringLiteral("NVIDIA B200"), 64 + i, 1000 + i));
    }
    TextTable serial(listColumns());
    for (const RunPtr& run : runs)
        appendListRow(*run, serial);
    const TextTable parts = listTable(runs);
    QCOMPARE(parts.rowCount(), std::size_t(count));
    std::string a, b;
    parts.writeAligned([&](std::string_view chunk) { a.append(chunk); });
    serial.writeAligned([&](std::string_view chunk) { b.append(chunk); });
    QVERIFY(a == b);
    const QVector<QStringList> listed = readBack(serializeRuns(runs, ExportFormat::Csv));
    QCOMPARE(listed.size(), count + 1);
    QCOMPARE(cell(listed, QStringLiteral("provider"), 1), QStringLiteral("p0"));
    QCOMPARE(cell(listed, QStringLiteral("provider"), count), QStringLiteral("p%1").arg(count - 1));
}

// The one JSON number writer of the reports: finite values as numbers, NaN and infinities (unknown) as null.
void TestCsvWriter::jsonNumbers()
{
    QCOMPARE(jsonNumber(1.5).dump(), std::string("1.5"));
    QCOMPARE(jsonNumber(-0.25).dump(), std::string("-0.25"));
    QCOMPARE(jsonNumber(std::nan("")).dump(), std::string("null"));
    QCOMPARE(jsonNumber(std::numeric_limits<double>::infinity()).dump(), std::string("null"));
    QCOMPARE(jsonNumber(-std::numeric_limits<double>::infinity()).dump(), std::string("null"));
    QVERIFY(jsonNumber(1e300).is_number_float());
}

KIX_TEST_GUILESS_MAIN(TestCsvWriter)
#include "tst_csvwriter.moc"
