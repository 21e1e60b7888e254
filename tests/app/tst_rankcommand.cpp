// SPDX-License-Identifier: Apache-2.0
// kix rank in-process on a leaderboard-shaped JSON Lines file written here: a few submissions on two GPUs, one
// implementation observed twice, a failed run; its three formats, --filter and the exit codes.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "tests/support/processes.h"
#include "tests/support/testmain.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix::cli;
using Json = nlohmann::json;

namespace {

using Result = kixtest::CommandResult;

Result runRank(const QStringList& args)
{
    QString out, err;
    QTextStream o(&out), e(&err);
    const int code = runCommand(QStringLiteral("rank"), args, o, e);
    o.flush();
    e.flush();
    return { code, out, err };
}

QString text(const Json& j)
{
    return QString::fromStdString(j.get<std::string>());
}

std::string digest(char c)
{
    return "sha256:" + std::string(64, c);
}

// One submission as a kernelindex document: latency in ns (what every kix reader takes today), its implementation
// named by digest, the Liger-style externalId that names kernel, pass, provider, GPU and workload.
Json submission(const std::string& user, char impl, const std::string& gpu, double ns, int minute,
    const std::string& status = "passed")
{
    const std::string slug = gpu == "NVIDIA B200" ? "nvidia-b200" : "nvidia-h100";
    const std::string stamp = "2026-03-01-10-" + std::string(minute < 10 ? "0" : "") + std::to_string(minute) + "-00";
    Json spec = { { "status", status }, { "observedAt", "2026-03-01T10:00:00.000Z" },
        { "sourceNative",
            { { "source", "leaderboard" }, { "benchmark", "nvfp4_group_gemm/forward" },
                { "externalId",
                    "nvfp4_group_gemm/forward/" + user + "/" + slug + "/m256-n4096-k7168-fp16/" + stamp } } },
        { "protocolDigest", digest('1') }, { "workloadDigest", digest('2') },
        { "environmentDigest", digest(slug == "nvidia-b200" ? '3' : '4') }, { "implementationDigest", digest(impl) } };
    if (status == "passed")
        spec["timing"] = { { "latencyNs", { { "median", ns } } }, { "primaryStatistic", "median" } };
    return {
        { "run",
            { { "kind", "BenchmarkRun" }, { "apiVersion", "kernelindex.dev/v1alpha1" }, { "spec", spec },
                { "metadata", { { "name", "submission-" + user + "-" + slug + "-" + std::to_string(minute) } } } } },
        { "protocol",
            { { "kind", "BenchmarkProtocol" }, { "apiVersion", "kernelindex.dev/v1alpha1" },
                { "spec", { { "comparability", { { "family", "leaderboard" } } } } },
                { "metadata", { { "name", "leaderboard" } } } } },
        { "environment",
            { { "kind", "ExecutionEnvironment" }, { "apiVersion", "kernelindex.dev/v1alpha1" },
                { "spec", { { "hardware", { { "vendor", "nvidia" }, { "product", gpu } } } } },
                { "metadata", { { "name", slug } } } } }
    };
}

} // namespace

class TestRankCommand : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_file = m_dir.filePath(QStringLiteral("leaderboard.jsonl"));
        QFile f(m_file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const Json docs[] = { submission("alice", 'a', "NVIDIA B200", 1200, 1),
            submission("bob", 'b', "NVIDIA B200", 1000, 2), submission("carol", 'c', "NVIDIA B200", 1500, 3),
            submission("dave", 'd', "NVIDIA B200", 1300, 4), submission("dave", 'd', "NVIDIA B200", 1100, 5),
            submission("eve", 'e', "NVIDIA B200", 0, 6, "runtime_error"),
            submission("alice", 'a', "NVIDIA H100", 2000, 7), submission("bob", 'b', "NVIDIA H100", 3000, 8) };
        for (const Json& d : docs)
            f.write((d.dump() + "\n").c_str());
    }

    void json()
    {
        const Result r = runRank({ m_file, QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY2(r.code == ExitOk, qPrintable(r.err));
        const Json j = Json::parse(r.out.toStdString());
        QCOMPARE(int(j["cohorts"].size()), 2); // B200 and H100: never one cohort
        const Json& b200 = j["cohorts"][0]["key"]["gpu"] == "NVIDIA B200" ? j["cohorts"][0] : j["cohorts"][1];
        const Json& h100 = j["cohorts"][0]["key"]["gpu"] == "NVIDIA B200" ? j["cohorts"][1] : j["cohorts"][0];
        QCOMPARE(text(b200["key"]["kernel"]), QStringLiteral("nvfp4_group_gemm"));
        QCOMPARE(text(b200["key"]["metric"]), QStringLiteral("latency"));
        QCOMPARE(text(b200["key"]["unit"]), QStringLiteral("ns"));
        QStringList order;
        for (const Json& e : b200["entries"])
            order << QString::fromStdString(e["implementation"]);
        QCOMPARE(order, QStringList({ "bob", "dave", "alice", "carol" }));
        const double ratios[] = { 1.0, 1.1, 1.2, 1.5 };
        for (int i = 0; i < 4; ++i)
            QVERIFY(qAbs(double(b200["entries"][i]["ratio"]) - ratios[i]) < 1e-12);
        QCOMPARE(int(b200["entries"][1]["count"]), 2);
        QCOMPARE(double(b200["entries"][1]["best"]), 1100.0);
        QCOMPARE(double(b200["entries"][1]["median"]), 1200.0);
        QCOMPARE(int(b200["entries"][1]["observations"].size()), 2);
        QVERIFY(b200["entries"][1]["distinguishable"].is_null());
        QCOMPARE(text(b200["entries"][1]["evidence"]), QStringLiteral("no noise recorded"));
        QCOMPARE(int(b200["failed"].size()), 1);
        QCOMPARE(text(b200["failed"][0]["implementation"]), QStringLiteral("eve"));
        QCOMPARE(text(b200["failed"][0]["status"]), QStringLiteral("runtime_error"));
        QCOMPARE(text(h100["entries"][0]["implementation"]), QStringLiteral("alice"));
        QCOMPARE(double(h100["entries"][1]["ratio"]), 1.5);
    }

    void table()
    {
        const Result r = runRank({ m_file });
        QVERIFY2(r.code == ExitOk, qPrintable(r.err));
        const QStringList lines = r.out.split(QLatin1Char('\n'));
        const int header
            = int(lines.indexOf(QRegularExpression(QStringLiteral("^nvfp4_group_gemm forward .*NVIDIA B200.*"))));
        QVERIFY2(header >= 0, qPrintable(r.out));
        QVERIFY(lines[header].contains(QStringLiteral("4 implementations, 6 runs")));
        QVERIFY(lines[header + 2].contains(
            QRegularExpression(QStringLiteral("^\\s+1\\s+bob\\s+1 µs\\s+1 µs\\s+1\\s+1\\.00×\\s+best$"))));
        QVERIFY2(lines[header + 3].contains(QRegularExpression(
                     QStringLiteral("^\\s+2\\s+dave\\s+1\\.1 µs\\s+1\\.2 µs\\s+2\\s+1\\.10×\\s+no noise recorded$"))),
            qPrintable(lines[header + 3]));
        QVERIFY(lines[header + 6].contains(QStringLiteral("failed, unranked: eve (runtime_error)")));
    }

    void csv()
    {
        const Result r = runRank({ m_file, QStringLiteral("--format"), QStringLiteral("csv") });
        QVERIFY2(r.code == ExitOk, qPrintable(r.err));
        const QStringList rows = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 1 + 5 + 2);
        QVERIFY(rows[0].startsWith(QStringLiteral("kernel,pass,workload,dtype,gpu,protocol_family,metric,")));
        const int rank = int(rows[0].split(QLatin1Char(',')).indexOf(QStringLiteral("rank")));
        const int ratio = int(rows[0].split(QLatin1Char(',')).indexOf(QStringLiteral("ratio")));
        const int status = int(rows[0].split(QLatin1Char(',')).indexOf(QStringLiteral("status")));
        QStringList b200;
        for (const QString& row : rows)
            if (row.contains(QStringLiteral("NVIDIA B200")))
                b200 << row;
        QCOMPARE(b200.size(), 5);
        QCOMPARE(b200[1].split(QLatin1Char(','))[rank], QStringLiteral("2"));
        QCOMPARE(b200[1].split(QLatin1Char(','))[ratio].toDouble(), 1.1);
        QCOMPARE(b200[4].split(QLatin1Char(','))[rank], QString()); // the failed run: no rank
        QCOMPARE(b200[4].split(QLatin1Char(','))[status], QStringLiteral("runtime_error"));
    }

    void filterAndFailures()
    {
        Result r = runRank({ m_file, QStringLiteral("--filter"), QStringLiteral("gpu=h100"), QStringLiteral("--format"),
            QStringLiteral("json") });
        QVERIFY2(r.code == ExitOk, qPrintable(r.err));
        QCOMPARE(int(Json::parse(r.out.toStdString())["cohorts"].size()), 1);
        r = runRank({ m_file, QStringLiteral("--filter"), QStringLiteral("provider=nobody") });
        QCOMPARE(r.code, int(ExitFailure));
        QVERIFY(r.err.contains(QStringLiteral("nothing to rank")));
        r = runRank({ m_file, QStringLiteral("--format"), QStringLiteral("xml") });
        QCOMPARE(r.code, int(ExitUsage));
        r = runRank({ QStringLiteral("--help") });
        QCOMPARE(r.code, int(ExitOk));
        QVERIFY(r.out.contains(QStringLiteral("Mann-Whitney")));
    }

    void chartKindRank()
    {
        // kix chart --kind rank: the largest cohort by default, the one --cohort names otherwise.
        const QString svg = m_dir.filePath(QStringLiteral("rank.svg"));
        QString out, err;
        QTextStream o(&out), e(&err);
        int code = runCommand(QStringLiteral("chart"),
            { m_file, QStringLiteral("--kind"), QStringLiteral("rank"), QStringLiteral("--out"), svg }, o, e);
        e.flush();
        QVERIFY2(code == ExitOk, qPrintable(err));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        QVERIFY(bytes.contains("carol")); // carol ran on the B200 only
        QVERIFY(bytes.contains("dave"));
        f.close();
        code = runCommand(QStringLiteral("chart"),
            { m_file, QStringLiteral("--kind=rank"), QStringLiteral("--cohort"), QStringLiteral("H100"),
                QStringLiteral("--out"), svg },
            o, e);
        QCOMPARE(code, int(ExitOk));
        QVERIFY(f.open(QIODevice::ReadOnly));
        bytes = f.readAll();
        QVERIFY(bytes.contains("alice"));
        QVERIFY(!bytes.contains("carol"));
    }

    void chartKindRecords()
    {
        // kix chart --kind records: the window's Records chart of the cohort --cohort names, headless.
        const QString svg = m_dir.filePath(QStringLiteral("records.svg"));
        QString out, err;
        QTextStream o(&out), e(&err);
        const int code = runCommand(QStringLiteral("chart"),
            { m_file, QStringLiteral("--kind"), QStringLiteral("records"), QStringLiteral("--cohort"),
                QStringLiteral("H100"), QStringLiteral("--out"), svg },
            o, e);
        e.flush();
        o.flush();
        QVERIFY2(code == ExitOk, qPrintable(err));
        QVERIFY(out.contains(QStringLiteral("(records, 8 runs)")));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.contains("Records"));
        QVERIFY(bytes.contains("held now by alice")); // 2000 ns on the H100, bob 3000
    }

private:
    QTemporaryDir m_dir;
    QString m_file;
};

KIX_TEST_MAIN(TestRankCommand)
#include "tst_rankcommand.moc"
