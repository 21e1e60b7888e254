// SPDX-License-Identifier: Apache-2.0
// The HTML report: its tables hold the rows Rank, the comparison and the records give for the bundled Liger runs,
// every text is escaped, nothing points outside the file, charts are inline SVG, two reports differ only in the
// generation line; and a real browser (Debian's chromium, headless, offline) opens it: the DOM holds the tables and
// the svg elements, the screenshot is a PNG of the asked size with the charts' colours in it.
#include "ui/report/htmlreport.h"
#include "ui/report/reportcharts.h"

#include "kix/config.h"
#include "model/compare/comparison.h"
#include "model/compare/rank.h"
#include "model/compare/records.h"
#include "model/read/runloader.h"
#include "tests/model/runfactory.h"

#include "tests/support/testmain.h"

#include <QCryptographicHash>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kix;

namespace {

ReportInput bundledRuns()
{
    const LoadResult loaded = loadPaths({ QStringLiteral(KIX_SOURCE_DIR "/resources/runs") });
    ReportInput input;
    input.runs = loaded.runs;
    input.diagnostics = loaded.diagnostics;
    input.madeBy = QStringLiteral("kix report resources/runs --out r.html");
    input.generatedAt = QDateTime(QDate(2026, 12, 3), QTime(12, 0), Qt::UTC);
    return input;
}

// The bodies of the tables with `cssClass` (or every table), in order.
QStringList tables(const QString& html, const QString& cssClass = {})
{
    const QRegularExpression re(cssClass.isEmpty() ? QStringLiteral("<table[^>]*>(.*?)</table>")
                                                   : QStringLiteral("<table class=\"%1\">(.*?)</table>").arg(cssClass),
        QRegularExpression::DotMatchesEverythingOption);
    QStringList out;
    for (auto it = re.globalMatch(html); it.hasNext();)
        out << it.next().captured(1);
    return out;
}

int bodyRows(const QString& table)
{
    const qsizetype body = table.indexOf(QLatin1String("<tbody>"));
    return int(table.mid(body).count(QLatin1String("<tr")));
}

QString chromium()
{
    for (const char* name : { "chromium", "chromium-browser" }) {
        const QString path = QStandardPaths::findExecutable(QString::fromLatin1(name));
        if (!path.isEmpty())
            return path;
    }
    return {};
}

// Chromium headless, offline (every host name resolves to nothing), with a profile of its own.
QByteArray runChromium(const QString& profile, const QStringList& args, int* exitCode)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start(chromium(),
        QStringList { QStringLiteral("--headless"), QStringLiteral("--no-sandbox"), QStringLiteral("--disable-gpu"),
            QStringLiteral("--no-first-run"), QStringLiteral("--user-data-dir=") + profile,
            QStringLiteral("--host-resolver-rules=MAP * ~NOTFOUND") }
            + args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        *exitCode = -1;
        return {};
    }
    *exitCode = p.exitCode();
    return p.readAllStandardOutput();
}

} // namespace

class TestHtmlReport : public QObject
{
    Q_OBJECT
private slots:
    void tablesHoldTheRows();
    void escapesEveryText();
    void selfContained();
    void deterministic();
    void capsCloseTheirTables();
    void inlineSvgHasNoUrl();
    void writeRefusesADirectory();
    void chromiumOpensIt();
};

void TestHtmlReport::tablesHoldTheRows()
{
    const ReportInput input = bundledRuns();
    QCOMPARE(input.runs.size(), 42); // resources/runs/README.md: 42 runs, liger and huggingface on B200
    ReportSummary summary;
    const QString html = QString::fromUtf8(htmlReport(input, &summary));
    QCOMPARE(summary.runs, 42);
    QCOMPARE(summary.files, 2);

    // Rank: one table per cohort, its rows the entries best first, then the failed and unranked runs.
    const Ranking ranking = rankRuns(input.runs);
    QVERIFY(ranking.cohorts.size() > 1);
    QCOMPARE(summary.cohorts, ranking.cohorts.size());
    const QStringList rankTables = tables(html, QStringLiteral("rank"));
    QCOMPARE(rankTables.size(), ranking.cohorts.size());
    for (int c = 0; c < ranking.cohorts.size(); ++c) {
        const RankCohort& cohort = ranking.cohorts[c];
        QVERIFY(html.contains(cohort.key.describe().toHtmlEscaped()));
        QCOMPARE(bodyRows(rankTables[c]), cohort.entries.size() + cohort.failed.size() + cohort.unranked.size());
        const QString firstRow = rankTables[c].mid(rankTables[c].indexOf(QLatin1String("<tbody>")));
        QVERIFY2(firstRow.contains(QStringLiteral("<tr class=\"best\"><td class=\"n\">1</td><td>%1")
                                       .arg(cohort.entries.first().bestRun->implementationLabel())),
            qPrintable(firstRow.left(300)));
    }

    // Verdicts: liger against huggingface, one row per pair, with both medians, the ratio, the test and the counts.
    const Comparison comparison = compareRuns(input.runs, Baseline::defaultFor(input.runs));
    QCOMPARE(comparison.baseline.describe(), QStringLiteral("huggingface"));
    QCOMPARE(summary.pairs, comparison.pairs.size());
    QCOMPARE(comparison.pairs.size(), 21); // 7 workloads x 3 passes
    const QStringList all = tables(html);
    const auto pairTable = std::find_if(all.cbegin(), all.cend(),
        [](const QString& t) { return t.contains(QLatin1String("<th>baseline median</th>")); });
    QVERIFY(pairTable != all.cend());
    QCOMPARE(bodyRows(*pairTable), 21);
    for (const ComparisonPair& pair : comparison.pairs)
        QVERIFY(pairTable->contains(rankRatioText(pair.ratio)));
    QVERIFY(
        html.contains(QLatin1String("<td class=\"n\">liger</td>")) || html.contains(QLatin1String("<td>liger</td>")));
    QVERIFY(html.contains(QLatin1String("class=\"faster\">faster</td>")));

    // Records: a row per step of every timeline.
    const Records records = recordTimelines(input.runs);
    QVERIFY(!records.timelines.isEmpty());
    int steps = 0;
    for (const RecordTimeline& t : records.timelines)
        steps += int(t.steps.size());
    const auto recordTable = std::find_if(
        all.cbegin(), all.cend(), [](const QString& t) { return t.contains(QLatin1String("<th>margin</th>")); });
    QVERIFY(recordTable != all.cend());
    QCOMPARE(bodyRows(*recordTable), steps);

    // The header: what made it, kix's version, each input with its digest.
    QVERIFY(html.contains(QLatin1String("<code>kix report resources/runs --out r.html</code>")));
    QVERIFY(html.contains(QStringLiteral("kix " KIX_VERSION)));
    QFile file(QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-liger-huggingface-nvidia-b200.jsonl"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray digest = QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex();
    QVERIFY(html.contains(QStringLiteral("sha256:") + QString::fromLatin1(digest)));
}

void TestHtmlReport::escapesEveryText()
{
    // Names come from users' files: a provider, a GPU and a filter that are markup must stay text.
    RunList runs { kixtest::makeRun(QStringLiteral("<script>alert(1)</script>"), QStringLiteral("B200 <u>"), 1024, 100),
        kixtest::makeRun(QStringLiteral("huggingface"), QStringLiteral("B200 <u>"), 1024, 200),
        kixtest::makeRun(QStringLiteral("<script>alert(1)</script>"), QStringLiteral("B200 <u>"), 2048, 150),
        kixtest::makeRun(QStringLiteral("huggingface"), QStringLiteral("B200 <u>"), 2048, 300) };
    ReportInput input;
    input.runs = runs;
    input.madeBy = QStringLiteral("kix report --filter '<img src=x onerror=alert(1)>'");
    input.filter = QStringLiteral("<img src=x onerror=alert(1)>");
    input.title = QStringLiteral("A & B <i>");
    input.diagnostics << makeWarning(QStringLiteral("a<script>.json"), QStringLiteral("/run"), QStringLiteral("<x>"));
    ReportSummary summary;
    const QString html = QString::fromUtf8(htmlReport(input, &summary));
    QVERIFY(summary.charts > 0); // the names reach the charts' SVG too
    const qsizetype script = html.indexOf(QLatin1String("<script"), 0, Qt::CaseInsensitive);
    QVERIFY2(script < 0, qPrintable(html.mid(script - 300, 400)));
    QVERIFY(!html.contains(QLatin1String("<img"), Qt::CaseInsensitive));
    const qsizetype bold = html.indexOf(QLatin1String("<u>"));
    QVERIFY2(bold < 0, qPrintable(html.mid(bold - 300, 400)));
    QVERIFY(!html.contains(QLatin1String("<i>")));
    QVERIFY(!html.contains(QLatin1String("<x>")));
    QVERIFY(html.contains(QLatin1String("&lt;script&gt;alert(1)&lt;/script&gt;")));
    QVERIFY(html.contains(QLatin1String("<title>A &amp; B &lt;i&gt;</title>")));
    QVERIFY(html.contains(QLatin1String("&lt;img src=x onerror=alert(1)&gt;")));
}

void TestHtmlReport::selfContained()
{
    ReportSummary summary;
    const QString html = QString::fromUtf8(htmlReport(bundledRuns(), &summary));
    QVERIFY(html.startsWith(QLatin1String("<!DOCTYPE html>\n<html lang=\"en\">")));
    QVERIFY(html.trimmed().endsWith(QLatin1String("</html>")));
    QVERIFY(!html.contains(QLatin1String("http://")));
    QVERIFY(!html.contains(QLatin1String("https://")));
    QVERIFY(!html.contains(QLatin1String("src=")));
    QVERIFY(!html.contains(QLatin1String("<link")));
    QVERIFY(!html.contains(QLatin1String("@import")));
    QVERIFY(!html.contains(QLatin1String("<?xml")));
    // The views kix summary draws (the speed-up for these runs) and one of every other kind that has data.
    QVERIFY(summary.charts >= 3);
    QCOMPARE(int(html.count(QLatin1String("<svg "))), summary.charts);
    QCOMPARE(int(html.count(QLatin1String("</svg>"))), summary.charts);
    QVERIFY(html.contains(QLatin1String("data-kind=\"speedup\"")));
    QVERIFY(html.contains(QLatin1String("data-kind=\"rank\"")));
    QVERIFY(
        html.indexOf(QLatin1String("data-kind=\"speedup\"")) < html.indexOf(QLatin1String("data-kind=\"quantiles\"")));
    // Ids are unique across the charts.
    QSet<QString> ids;
    const QRegularExpression id(QStringLiteral("\\bid=\"([^\"]+)\""));
    for (auto it = id.globalMatch(html); it.hasNext();) {
        const QString value = it.next().captured(1);
        QVERIFY2(!ids.contains(value), qPrintable(value));
        ids.insert(value);
    }
}

void TestHtmlReport::deterministic()
{
    ReportInput input = bundledRuns();
    const QStringList a = QString::fromUtf8(htmlReport(input)).split(QLatin1Char('\n'));
    input.generatedAt = input.generatedAt.addSecs(3671);
    const QStringList b = QString::fromUtf8(htmlReport(input)).split(QLatin1Char('\n'));
    QCOMPARE(a.size(), b.size());
    QStringList differing;
    for (int i = 0; i < a.size(); ++i)
        if (a[i] != b[i])
            differing << b[i];
    QCOMPARE(differing.size(), 1);
    QVERIFY(differing.first().contains(QLatin1String("id=\"generated\"")));
    QVERIFY(differing.first().contains(QLatin1String("2026-12-03T13:01:11Z")));
}

void TestHtmlReport::capsCloseTheirTables()
{
    // 301 pairs (the report shows 300) and a cohort of 101 implementations (it shows 100): the lines that say so
    // come after their table, never inside it (a browser would move them above it).
    RunList runs;
    for (int i = 1; i <= 301; ++i) {
        runs << kixtest::makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), i, 100);
        runs << kixtest::makeRun(QStringLiteral("huggingface"), QStringLiteral("NVIDIA B200"), i, 200);
    }
    for (int i = 1; i <= 101; ++i)
        runs << kixtest::makeRun(
            QStringLiteral("p%1").arg(i), QStringLiteral("NVIDIA B200"), 0.5, 100 + i); // first of the cohorts
    ReportInput input;
    input.runs = runs;
    const QString html = QString::fromUtf8(htmlReport(input));
    QVERIFY(html.contains(QStringLiteral("… and 1 more pairs")));
    QVERIFY(html.contains(QStringLiteral("… and 1 more implementations")));
    for (const QString& table : tables(html))
        QVERIFY2(!table.contains(QLatin1String("<p")), qPrintable(table.right(300)));
}

void TestHtmlReport::inlineSvgHasNoUrl()
{
    const QByteArray svg = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
                           "<svg width=\"200mm\" height=\"100mm\"\n viewBox=\"0 0 740 480\"\n"
                           " xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
                           "version=\"1.2\" baseProfile=\"tiny\">\n<defs><linearGradient id=\"gradient1\"/></defs>"
                           "<g fill=\"url(#gradient1)\"><use xlink:href=\"#gradient1\"/>"
                           "<image width=\"1\" height=\"1\" xlink:href=\"https://example.org/x.png\"/></g></svg>\n";
    const QString out = inlineSvg(svg, QStringLiteral("c3-"));
    QVERIFY2(out.startsWith(QLatin1String("<svg width=\"740\" height=\"480\"")), qPrintable(out));
    QVERIFY(!out.contains(QLatin1String("http")));
    QVERIFY(!out.contains(QLatin1String("<image")));
    QVERIFY(out.contains(QLatin1String("id=\"c3-gradient1\"")));
    QVERIFY(out.contains(QLatin1String("url(#c3-gradient1)")));
    QVERIFY(out.contains(QLatin1String("href=\"#c3-gradient1\"")));
}

void TestHtmlReport::writeRefusesADirectory()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("report.html")));
    QString error;
    QVERIFY(!writeHtmlReport(bundledRuns(), dir.filePath(QStringLiteral("report.html")), &error));
    QVERIFY2(error.contains(QLatin1String("is a directory")), qPrintable(error));
    QVERIFY(QFileInfo(dir.filePath(QStringLiteral("report.html"))).isDir());
}

void TestHtmlReport::chromiumOpensIt()
{
    if (chromium().isEmpty())
        QSKIP("chromium is not installed (apt-get install chromium; scripts/setup.sh --ci-packages installs it)");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("report.html"));
    ReportSummary summary;
    QString error;
    QVERIFY2(writeHtmlReport(bundledRuns(), path, &error, &summary), qPrintable(error));
    const QString url = QUrl::fromLocalFile(path).toString();

    // The DOM as the browser parsed it: every svg element, the rank tables' rows.
    int code = -1;
    const QString dom = QString::fromUtf8(
        runChromium(dir.filePath(QStringLiteral("profile")), { QStringLiteral("--dump-dom"), url }, &code));
    QCOMPARE(code, 0);
    QCOMPARE(int(dom.count(QLatin1String("<svg "))), summary.charts);
    const Ranking ranking = rankRuns(bundledRuns().runs);
    const QStringList rankTables = tables(dom, QStringLiteral("rank"));
    QCOMPARE(rankTables.size(), ranking.cohorts.size());
    for (int c = 0; c < ranking.cohorts.size(); ++c)
        QCOMPARE(bodyRows(rankTables[c]), ranking.cohorts[c].entries.size() + ranking.cohorts[c].failed.size());
    QVERIFY(dom.contains(QLatin1String("<th>baseline median</th>")));

    // The screenshot: a PNG of the asked size, not blank, with the charts' first colour (#0072b2) in it.
    const QString shot = dir.filePath(QStringLiteral("report.png"));
    runChromium(dir.filePath(QStringLiteral("profile")),
        { QStringLiteral("--hide-scrollbars"), QStringLiteral("--window-size=1600,2200"),
            QStringLiteral("--screenshot=") + shot, url },
        &code);
    QCOMPARE(code, 0);
    const QImage image(shot);
    QVERIFY2(!image.isNull(), qPrintable(shot));
    QCOMPARE(image.size(), QSize(1600, 2200));
    QSet<QRgb> colours;
    int chartBlue = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2) {
            const QRgb p = image.pixel(x, y) & 0xffffff;
            colours.insert(p);
            const QColor c(p);
            chartBlue += std::abs(c.red() - 0x00) + std::abs(c.green() - 0x72) + std::abs(c.blue() - 0xb2) < 24 ? 1 : 0;
        }
    QVERIFY2(colours.size() > 50, qPrintable(QString::number(colours.size())));
    QVERIFY2(chartBlue > 500, qPrintable(QString::number(chartBlue)));
}

KIX_TEST_MAIN(TestHtmlReport)
#include "tst_htmlreport.moc"
