// SPDX-License-Identifier: Apache-2.0
// Exports: PNG decodes at the asked size (and DPI), SVG keeps the title as text, PDF is a PDF with the text in it;
// a bad path fails without leaving a file.
#include "ui/charts/chartexporter.h"
#include "ui/charts/chartfactory.h"

#include "tests/ui/uitestsupport.h"

#include "tests/support/testmain.h"

#include <QBuffer>
#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QImageReader>
#include <QTemporaryDir>
#include <QTest>

using namespace kix;

namespace {

std::unique_ptr<QChart> chart(ChartKind kind)
{
    return buildChart(kind, kixtest::allRuns(), {});
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestChartExporter : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void png_data();
    void png();
    void pngDpiScalesText();
    void svg_data();
    void svg();
    void pdf();
    void refused();
    void clipboard();

private:
    QTemporaryDir m_dir;
};

void TestChartExporter::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void TestChartExporter::png_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<double>("dpi");
    QTest::newRow("quantiles 1200x800") << int(ChartKind::Quantiles) << QSize(1200, 800) << 96.0;
    QTest::newRow("sweep 640x480") << int(ChartKind::Sweep) << QSize(640, 480) << 96.0;
    QTest::newRow("speed-up 2400x1600 at 300 dpi") << int(ChartKind::Speedup) << QSize(2400, 1600) << 300.0;
}

void TestChartExporter::png()
{
    QFETCH(int, kind);
    QFETCH(QSize, size);
    QFETCH(double, dpi);
    const QString path = m_dir.filePath(QStringLiteral("chart-%1.png").arg(QTest::currentDataTag()));
    QString error;
    QVERIFY2(ChartExporter::exportChart(chart(ChartKind(kind)), path, size, dpi, &error), qPrintable(error));
    QImageReader reader(path);
    QCOMPARE(reader.format(), QByteArray("png"));
    const QImage image = reader.read();
    QCOMPARE(image.size(), size);
    QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), qRound(dpi));
    // Something was drawn: not one flat colour.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    QVERIFY(colours.size() > 10);
}

void TestChartExporter::pngDpiScalesText()
{
    // The same pixels at twice the DPI: a chart laid out at half the logical size, so its text takes more pixels.
    auto darkRows = [](const QImage& image) {
        int rows = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                if (qGray(image.pixel(x, y)) < 100) {
                    ++rows;
                    break;
                }
            }
        }
        return rows;
    };
    const QImage normal = ChartExporter::renderImage(chart(ChartKind::Sweep), QSize(1200, 800), 96);
    const QImage print = ChartExporter::renderImage(chart(ChartKind::Sweep), QSize(1200, 800), 192);
    QCOMPARE(print.size(), normal.size());
    QVERIFY(darkRows(print) > darkRows(normal));
}

void TestChartExporter::svg_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("title");
    QTest::newRow("quantiles") << int(ChartKind::Quantiles) << QStringLiteral("Latency quantiles");
    QTest::newRow("sweep") << int(ChartKind::Sweep) << QStringLiteral("Latency sweep");
    QTest::newRow("speed-up") << int(ChartKind::Speedup)
                              << QStringLiteral("group_norm"); // "group_norm · ... — speed-up vs"
}

void TestChartExporter::svg()
{
    QFETCH(int, kind);
    QFETCH(QString, title);
    const QString path = m_dir.filePath(QStringLiteral("chart-%1.svg").arg(QTest::currentDataTag()));
    QString error;
    QVERIFY2(ChartExporter::exportChart(chart(ChartKind(kind)), path, QSize(1000, 700), 96, &error), qPrintable(error));
    const QString svg = QString::fromUtf8(readAll(path));
    QVERIFY(svg.startsWith(QStringLiteral("<?xml")));
    QVERIFY(svg.contains(QStringLiteral("<svg")));
    QVERIFY(svg.contains(QStringLiteral("viewBox=\"0 0 1000 700\"")));
    QVERIFY2(svg.contains(QStringLiteral(">") + title), "the title is text in the SVG, not paths");
    QVERIFY(svg.contains(QStringLiteral("<text")));
    QVERIFY(svg.contains(QStringLiteral("<title>") + title)); // the document title too
}

void TestChartExporter::pdf()
{
    const QString path = m_dir.filePath(QStringLiteral("chart.pdf"));
    QString error;
    QVERIFY2(
        ChartExporter::exportChart(chart(ChartKind::Speedup), path, QSize(1200, 800), 96, &error), qPrintable(error));
    const QByteArray pdf = readAll(path);
    QVERIFY(pdf.startsWith("%PDF"));
    QVERIFY(pdf.trimmed().endsWith("%%EOF"));
    QVERIFY(pdf.contains("/Title"));
    // Text kept as text: the page draws glyphs from an embedded font.
    QVERIFY(pdf.contains("/Font"));
    // The page is the chart's size at 96 dpi: 1200x800 px = 900x600 pt.
    QVERIFY(pdf.contains("/MediaBox [0 0 900") && pdf.contains(" 600"));
}

void TestChartExporter::refused()
{
    QString error;
    const QString bad = m_dir.filePath(QStringLiteral("chart.gif"));
    QVERIFY(!ChartExporter::exportChart(chart(ChartKind::Sweep), bad, QSize(800, 600), 96, &error));
    QVERIFY(error.contains(QStringLiteral("unknown chart format")));
    QVERIFY(!QFile::exists(bad));
    QVERIFY(!ChartExporter::exportChart(
        chart(ChartKind::Sweep), m_dir.filePath(QStringLiteral("x.png")), QSize(4, 4), 96, &error));
    QVERIFY(!ChartExporter::exportChart(
        chart(ChartKind::Sweep), QStringLiteral("/nonexistent-dir/x.png"), QSize(800, 600), 96, &error));
    QVERIFY(!error.isEmpty());
}

void TestChartExporter::clipboard()
{
    ChartExporter::copyToClipboard(chart(ChartKind::Quantiles), QSize(600, 400), 2.0);
    const QImage image = QGuiApplication::clipboard()->image();
    if (image.isNull())
        QSKIP("this platform's clipboard holds no images");
    QCOMPARE(image.size(), QSize(1200, 800));
}

KIX_TEST_MAIN(TestChartExporter)
#include "tst_chartexporter.moc"
