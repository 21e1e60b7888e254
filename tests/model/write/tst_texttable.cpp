// SPDX-License-Identifier: Apache-2.0
// TextTable: the row model every command's table and CSV are written from (alignment in code points, RFC 4180
// CSV as csvLine writes it, cells past or short of the columns) and the chunked UTF-8 writer.
#include "model/write/csvwriter.h"
#include "model/write/texttable.h"

#include "tests/support/testmain.h"

#include <QBuffer>
#include <QTextStream>

#include <string>

using namespace kix;

namespace {
std::string aligned(const TextTable& table)
{
    std::string out;
    table.writeAligned([&](std::string_view chunk) { out.append(chunk); });
    return out;
}

std::string csvOf(const TextTable& table)
{
    std::string out;
    table.writeCsv([&](std::string_view chunk) { out.append(chunk); });
    return out;
}
} // namespace

class TestTextTable : public QObject
{
    Q_OBJECT

private slots:
    void alignsInCodePointsNotBytes();
    void csvQuotesAsRfc4180();
    void csvEqualsCsvLineForEveryField();
    void shortRowsArePaddedAndLongOnesCut();
    void cellsReadBackAsAdded();
    void appendedRowsAreTheSameTable();
    void chunkedWriterKeepsTheBytesWholeAndInOrder();
    void writerWithoutDeviceGoesThroughTheString();
    void reportRowsAreIndentedWithoutTrailingSpaces();
    void numberColumnsAlignOnTheirLastCharacter();
    void largePagesAreAlignedZeroedAndWritable();
    void aLargeTableGrowsAcrossTheLargePageSize();
};

// The large-page blocks: 2 MiB-aligned (only such ranges can be huge pages), zeroed, every byte writable.
void TestTextTable::largePagesAreAlignedZeroedAndWritable()
{
    const std::size_t bytes = (std::size_t(5) << 20) + 123;
    auto* p = static_cast<unsigned char*>(allocateLargePages(bytes));
    QVERIFY(p != nullptr);
    QCOMPARE(reinterpret_cast<std::uintptr_t>(p) % (std::uintptr_t(2) << 20), std::uintptr_t(0));
    QCOMPARE(p[0], 0);
    QCOMPARE(p[bytes - 1], 0);
    for (std::size_t i = 0; i < bytes; i += 4096)
        p[i] = static_cast<unsigned char>(i >> 12);
    p[bytes - 1] = 7;
    QCOMPARE(p[4096 * 300], static_cast<unsigned char>(300));
    releaseLargePages(p, bytes);

    std::vector<int, LargePageAllocator<int>> v;
    for (int i = 0; i < 3'000'000; ++i) // through heap blocks to large-page ones (12 MB), reallocating on the way
        v.push_back(i);
    QCOMPARE(v[12345], 12345);
    QCOMPARE(v.back(), 2'999'999);
}

// A table whose buffers pass the large-page size while it grows (no reserve), and one reserved up front, write the
// same bytes as the rows say.
void TestTextTable::aLargeTableGrowsAcrossTheLargePageSize()
{
    const QStringList columns = { QStringLiteral("n"), QStringLiteral("text") };
    TextTable grown(columns), reserved(columns);
    reserved.reserve(200'000, 40);
    std::string expected = "n       text\n";
    for (int i = 0; i < 200'000; ++i) {
        const QString n = QString::number(i);
        const QString text = QStringLiteral("row-%1-ünï").arg(i);
        grown.addRow({ n, text });
        reserved.addRow({ n, text });
        expected += n.toStdString() + std::string(8 - std::size_t(n.size()), ' ') + text.toStdString() + '\n';
    }
    QCOMPARE(grown.rowCount(), std::size_t(200'000));
    QCOMPARE(grown.cell(199'999, 1), std::string_view("row-199999-ünï"));
    QVERIFY(aligned(grown) == expected);
    QVERIFY(aligned(reserved) == expected);
}

// Rows built in two tables and joined are the table built in one: cells, widths (the wider column in the second
// part widens the whole), short rows, CSV.
void TestTextTable::appendedRowsAreTheSameTable()
{
    const QStringList columns = { QStringLiteral("name"), QStringLiteral("ms"), QStringLiteral("note") };
    const QVector<QStringList> rows = { { QStringLiteral("a"), QStringLiteral("1") },
        { QStringLiteral("naïve"), QStringLiteral("22.25"), QStringLiteral("x") },
        { QStringLiteral("a much wider name"), QStringLiteral("3") }, { QStringLiteral("Ωμ") } };
    TextTable whole(columns), first(columns), second(columns);
    for (int i = 0; i < rows.size(); ++i) {
        whole.addRow(rows[i]);
        (i < 2 ? first : second).addRow(rows[i]);
    }
    first.appendRows(std::move(second));
    QCOMPARE(first.rowCount(), whole.rowCount());
    QCOMPARE(second.rowCount(), std::size_t(0));
    QCOMPARE(aligned(first), aligned(whole));
    QCOMPARE(csvOf(first), csvOf(whole));
    QCOMPARE(first.cell(2, 0), std::string_view("a much wider name"));
    QCOMPARE(first.cell(3, 2), std::string_view());
    first.addRow({ QStringLiteral("after") }); // the joined table takes more rows
    QCOMPARE(first.cell(4, 0), std::string_view("after"));
}

void TestTextTable::alignsInCodePointsNotBytes()
{
    TextTable table({ QStringLiteral("name"), QStringLiteral("ms") });
    table.addRow({ QStringLiteral("naïve"), QStringLiteral("1.5") }); // 5 code points, 6 bytes
    table.addRow({ QStringLiteral("ab"), QStringLiteral("22.25") });
    table.addRow({ QStringLiteral("Ωμ"), QStringLiteral("3") });
    // the first column is as wide as its widest cell (5), two spaces apart; the last column is not padded
    QCOMPARE(QString::fromStdString(aligned(table)),
        QStringLiteral("name   ms\n"
                       "naïve  1.5\n"
                       "ab     22.25\n"
                       "Ωμ     3\n"));
}

void TestTextTable::csvQuotesAsRfc4180()
{
    TextTable table({ QStringLiteral("a"), QStringLiteral("b,c") });
    table.addRow({ QStringLiteral("say \"hi\""), QStringLiteral("two\nlines") });
    table.addRow({ QStringLiteral("cr\r"), QString() });
    // RFC 4180 §2.6–2.7: fields with commas, quotes or line breaks are quoted, quotes doubled
    QCOMPARE(csvOf(table), std::string("a,\"b,c\"\n\"say \"\"hi\"\"\",\"two\nlines\"\n\"cr\r\",\n"));
}

void TestTextTable::csvEqualsCsvLineForEveryField()
{
    const QStringList fields { QStringLiteral("plain"), QStringLiteral("com,ma"), QStringLiteral("q\"uote"),
        QStringLiteral("new\nline"), QString(), QStringLiteral("ünï cödé ✓"), QStringLiteral(" spaced "),
        QStringLiteral("\"") };
    TextTable table(fields);
    table.addRow(fields);
    table.addRow(QStringList(fields.rbegin(), fields.rend()));
    const QByteArray expected
        = csvLine(fields) + csvLine(fields) + csvLine(QStringList(fields.rbegin(), fields.rend()));
    QCOMPARE(QByteArray::fromStdString(csvOf(table)), expected);
}

void TestTextTable::shortRowsArePaddedAndLongOnesCut()
{
    TextTable table({ QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z") });
    table.addCell(QStringView(u"1"));
    table.endRow(); // y and z empty
    table.addRow({ QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3"), QStringLiteral("dropped") });
    table.endRow(); // an empty row
    QCOMPARE(table.rowCount(), std::size_t(3));
    QCOMPARE(csvOf(table), std::string("x,y,z\n1,,\n1,2,3\n,,\n"));
    QVERIFY(csvOf(table).find("dropped") == std::string::npos);
}

void TestTextTable::cellsReadBackAsAdded()
{
    TextTable table({ QStringLiteral("a"), QStringLiteral("b") });
    for (int r = 0; r < 1000; ++r) {
        table.addCell(QString::number(r));
        table.addCell(std::string_view(r % 2 ? "odd" : "é"));
        table.endRow();
    }
    QCOMPARE(table.cell(0, 0), std::string_view("0"));
    QCOMPARE(table.cell(0, 1), std::string_view("é"));
    QCOMPARE(table.cell(999, 0), std::string_view("999"));
    QCOMPARE(table.cell(999, 1), std::string_view("odd"));
}

void TestTextTable::chunkedWriterKeepsTheBytesWholeAndInOrder()
{
    // 20,000 rows: several 64 KiB chunks, some cells multi-byte, so a chunk boundary falls inside the table
    TextTable table({ QStringLiteral("row"), QStringLiteral("text") });
    for (int r = 0; r < 20000; ++r)
        table.addRow({ QString::number(r), QStringLiteral("välue %1, \"q\"").arg(r) });
    std::string whole;
    table.writeCsv([&](std::string_view chunk) { whole.append(chunk); });
    QVERIFY(whole.size() > 4 * (std::size_t(64) << 10));

    QBuffer device;
    QVERIFY(device.open(QIODevice::WriteOnly));
    QTextStream out(&device);
    out << "before\n"; // what went through the stream first stays first
    {
        Utf8Writer writer(out);
        table.writeCsv(std::ref(writer));
    }
    out << "after\n";
    out.flush();
    QCOMPARE(device.data(), QByteArray("before\n") + QByteArray::fromStdString(whole) + QByteArray("after\n"));
}

void TestTextTable::writerWithoutDeviceGoesThroughTheString()
{
    TextTable table({ QStringLiteral("k") });
    table.addRow({ QStringLiteral("ünï") });
    QString text;
    QTextStream out(&text);
    {
        Utf8Writer writer(out);
        table.writeAligned(std::ref(writer));
    }
    out.flush();
    QCOMPARE(text, QStringLiteral("k\nünï\n"));
}

void TestTextTable::reportRowsAreIndentedWithoutTrailingSpaces()
{
    // the reports' tables (rank, compare, resolve): the first row a header like any other, a row shorter than the
    // others, an empty last cell; no line ends in spaces
    const QVector<QStringList> rows {
        { QStringLiteral("#"), QStringLiteral("implementation"), QStringLiteral("median") },
        { QStringLiteral("1"), QStringLiteral("liger"), QStringLiteral("0.25 ms") },
        { QStringLiteral("2"), QStringLiteral("huggingface") }, { QStringLiteral("10"), QStringLiteral("x"), QString() }
    };
    QCOMPARE(alignedRows(rows, u"  "),
        QByteArray("  #   implementation  median\n"
                   "  1   liger           0.25 ms\n"
                   "  2   huggingface\n"
                   "  10  x\n"));
    QCOMPARE(alignedRows({}), QByteArray());
}

void TestTextTable::numberColumnsAlignOnTheirLastCharacter()
{
    // right-aligned columns (counts, times) pad on the left, the last one too, widths in code points ("µs");
    // a column index past the table is ignored
    const QVector<QStringList> rows { { QStringLiteral("kernel"), QStringLiteral("runs"), QStringLiteral("median") },
        { QStringLiteral("group_norm"), QStringLiteral("7"), QStringLiteral("12 µs") },
        { QStringLiteral("rms_norm"), QStringLiteral("1234"), QStringLiteral("3.5 µs") } };
    QCOMPARE(alignedRows(rows, {}, { 1, 2, 9 }),
        QByteArray("kernel      runs  median\n"
                   "group_norm     7   12 \xc2\xb5s\n"
                   "rms_norm    1234  3.5 \xc2\xb5s\n"));
}

KIX_TEST_GUILESS_MAIN(TestTextTable)
#include "tst_texttable.moc"
