// SPDX-License-Identifier: Apache-2.0
// What a loaded run costs: a million are held at once (issue 23), so the per-run heap blocks removed from Run (the
// search text, the identity's and the run digest's heap blocks, unshared workload and label lists) must stay gone.
#include "model/run.h"

#include "tests/support/testmain.h"

#include <QCryptographicHash>
#include <QHash>
#include <QTest>

using namespace kix;

// Run's own size on x86-64 with Qt 6 (QString 24 bytes): 30 strings, 6 lists, the raw text and a few numbers come to
// 1024 bytes. A field added back per run (a QByteArray search text: 24 bytes and a ~380-byte heap
// block) trips this ceiling; raise it only with a reason that a million runs can afford.
static_assert(sizeof(void*) != 8 || sizeof(Run) <= 1024, "Run grew: each loaded run is held a million times");

class TestRunMemory : public QObject
{
    Q_OBJECT

private slots:
    void identityIsTheMd5OfTheIdentityKey()
    {
        Run run;
        run.externalId = QStringLiteral("group_norm/backward/liger/nvidia-b200/batch128-channels32-fp32/t0");
        QVERIFY(run.identity.isEmpty());
        run.finalize();
        QVERIFY(!run.identity.isEmpty());
        const QByteArray md5 = QCryptographicHash::hash(run.identityKey().toUtf8(), QCryptographicHash::Md5);
        QCOMPARE(run.identity.toByteArray(), md5);
        QCOMPARE(run.identityHash(), run.identity);
        QCOMPARE(run.identity.toHex(), md5.toHex());
        // a run with its resource's digest: hashed without making the key (model/format/digest.h's md5Bytes)
        Run digested = run;
        digested.runDigest = QStringLiteral("sha256:") + QString(64, QLatin1Char('7'));
        digested.finalize();
        QCOMPARE(digested.identityKey(), QString(digested.runDigest));
        QCOMPARE(digested.identity.toByteArray(),
            QCryptographicHash::hash(digested.identityKey().toUtf8(), QCryptographicHash::Md5));
        QVERIFY(digested.identity != run.identity);
        Run other = run;
        other.externalId += QLatin1Char('x');
        other.finalize();
        QVERIFY(other.identity != run.identity);
        QHash<RunIdentity, int> rows { { run.identity, 0 }, { other.identity, 1 } };
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows.value(other.identityHash(), -1), 1);
    }

    void digestKeepsItsTextExactly_data()
    {
        QTest::addColumn<QString>("text");
        // sha256("abc"), FIPS 180-2 appendix B.1
        QTest::newRow("sha256, lower case")
            << "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        QTest::newRow("sha256, upper case hex")
            << "sha256:BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD";
        QTest::newRow("too short") << "sha256:ba7816bf";
        QTest::newRow("not hex") << "sha256:zz7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        QTest::newRow("another algorithm") << "sha512:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015";
        QTest::newRow("empty") << "";
    }
    void digestKeepsItsTextExactly()
    {
        QFETCH(QString, text);
        CompactDigest digest = text;
        QCOMPARE(digest.toString(), text);
        QCOMPARE(QString(digest), text);
        QCOMPARE(digest.toStdString(), text.toStdString());
        QCOMPARE(digest.isEmpty(), text.isEmpty());
        QVERIFY(digest == text);
        QVERIFY(digest == CompactDigest(text));
        QVERIFY(digest != CompactDigest(text + QLatin1Char('0')));
        Run run;
        run.runDigest = text;
        QCOMPARE(run.identityKey().isEmpty(), false);
        if (!text.isEmpty())
            QCOMPARE(run.identityKey(), text); // a run's identity is its digest's text
        digest.clear();
        QVERIFY(digest.isEmpty());
        QCOMPARE(digest.toString(), QString());
    }

    // Runs of one workload (or label set) share one list after finalize(); a changed list is the run's own.
    void finalizeSharesRepeatedLists()
    {
        auto make = [](const QString& channels) {
            Run run;
            run.workload = { { QStringLiteral("batch"), QStringLiteral("128"), 128 },
                { QStringLiteral("channels"), channels, channels.toDouble() } };
            run.labels = { { QStringLiteral("liger_version"), QStringLiteral("0.7.0") } };
            run.finalize();
            return run;
        };
        const Run a = make(QStringLiteral("2048"));
        const Run b = make(QStringLiteral("2048"));
        const Run c = make(QStringLiteral("4096"));
        QCOMPARE(a.workload.constData(), b.workload.constData());
        QCOMPARE(a.labels.constData(), b.labels.constData());
        QCOMPARE(a.labels.constData(), c.labels.constData());
        QVERIFY(a.workload.constData() != c.workload.constData());
        QCOMPARE(c.param(QStringLiteral("channels")), QStringLiteral("4096"));
        QCOMPARE(a.paramNumber(QStringLiteral("channels")), 2048.0);
        Run d = b;
        d.workload[1].value = QStringLiteral("1");
        QCOMPARE(b.param(QStringLiteral("channels")), QStringLiteral("2048")); // b's list is untouched
        QCOMPARE(d.param(QStringLiteral("channels")), QStringLiteral("1"));
    }

    // The search text is made on demand, from the fields as they are now.
    void searchTextFollowsTheFields()
    {
        Run run;
        run.externalId = QStringLiteral("Group_Norm/backward");
        run.gpuProduct = QStringLiteral("NVIDIA B200");
        run.labels = { { QStringLiteral("Zeta"), QStringLiteral("Last") } };
        run.finalize();
        QCOMPARE(run.searchText(), QByteArray("group_norm/backward nvidia b200     zeta=last"));
        run.status = QStringLiteral("timeout");
        QVERIFY(run.searchText().contains(" timeout "));
        QVERIFY(run.searchText().endsWith(" failed zeta=last"));
    }
};

KIX_TEST_GUILESS_MAIN(TestRunMemory)
#include "tst_runmemory.moc"
