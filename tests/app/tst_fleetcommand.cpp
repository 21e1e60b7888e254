// SPDX-License-Identifier: Apache-2.0
// `kix fleet` and `kix --follow` through the real binary: the command is wired, refuses before submitting, and
// reports a missing sbatch. (The Slurm run itself is tst_fleetslurm_cluster.)
#include "tests/support/processes.h"
#include "tests/support/testmain.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Result = kixtest::CommandResult;

Result runKixWithEnv(const QStringList& args, const QProcessEnvironment& env)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(KIX_BINARY), args);
    if (!p.waitForFinished(120000))
        return {};
    return { p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()) };
}

} // namespace

class TestFleetCommand : public QObject
{
    Q_OBJECT
private slots:
    void init()
    {
        m_env = QProcessEnvironment::systemEnvironment();
        m_env.insert(QStringLiteral("KIX_SLURM_BIN"), m_bin.path()); // no sbatch in it
        m_env.insert(QStringLiteral("KIX_FLEET_HOME"), m_home.path());
        m_env.remove(QStringLiteral("DISPLAY"));
        m_env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    }

    void helpListsFleet()
    {
        const Result r = runKixWithEnv({ "--help" }, m_env);
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("fleet"));
        QVERIFY(r.out.contains("--follow DIR"));
        const Result f = runKixWithEnv({ "fleet", "--help" }, m_env);
        QCOMPARE(f.code, 0);
        QVERIFY(f.out.contains("kix fleet submit [MATRIX] --results DIR"));
    }

    void planThroughTheBinary()
    {
        const Result r = runKixWithEnv({ "fleet", "plan", "--pass", "forward", "--sweep", "channels=64,128,...,1024",
                                           "--target", "h100:1", "--target", "partition=debug" },
            m_env);
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("10 tasks in 2 array job(s)"), qPrintable(r.out));
    }

    void submitWithoutSlurm()
    {
        QTemporaryDir results;
        const Result r = runKixWithEnv({ "fleet", "submit", "--pass", "forward", "--results", results.path() }, m_env);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("sbatch: command not found"), qPrintable(r.err));
        const Result many = runKixWithEnv({ "fleet", "submit", "--sweep", "batch=1,2,...,600", "--pass",
                                              "forward,backward", "--results", results.path() },
            m_env);
        QCOMPARE(many.code, 2);
        QVERIFY2(many.err.contains("1200 tasks") && many.err.contains("limit of 1000"), qPrintable(many.err));
    }

    void followNeedsAFolder()
    {
        const Result r = runKixWithEnv({ "--follow", "/no/such/folder" }, m_env);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--follow /no/such/folder: not a readable folder"), qPrintable(r.err));
        QTemporaryDir dir;
        QVERIFY(QFile::copy(QStringLiteral(KIX_TEST_DATA_DIR "/model/good/bare_run.json"), dir.filePath("run.json")));
        const Result ok = runKixWithEnv({ "--follow", dir.path() }, m_env); // no display: the summary of the folder
        QCOMPARE(ok.code, 0);
        QVERIFY2(ok.out.contains("kix: 1 runs"), qPrintable(ok.out));
    }

private:
    QTemporaryDir m_bin;
    QTemporaryDir m_home;
    QProcessEnvironment m_env;
};

KIX_TEST_GUILESS_MAIN(TestFleetCommand)
#include "tst_fleetcommand.moc"
