// SPDX-License-Identifier: Apache-2.0
// The filter grammar of the filter box and --filter: words, key=value, key:value, comparisons, folded names.
#include "model/filter/runfilter.h"
#include "tests/model/runfactory.h"

#include "tests/support/testmain.h"

#include <QTest>

using namespace kix;
using namespace kixtest;

class TestRunFilter : public QObject
{
    Q_OBJECT

private:
    RunList runs() const
    {
        auto bf16 = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 4096, 200);
        bf16->dtype = QStringLiteral("bf16");
        bf16->workload.append({ QStringLiteral("channels_per_group"), QStringLiteral("4"), 4 });
        bf16->labels.append({ QStringLiteral("branch"), QStringLiteral("main") });
        bf16->finalize();
        return { makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 1024, 100),
            makeRun(QStringLiteral("huggingface"), QStringLiteral("NVIDIA B200"), 2048, 300),
            makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA H100 80GB HBM3"), 2048, 150, 0.01,
                QStringLiteral("forward")),
            bf16 };
    }

    // Which of runs() match, as a string of indices: "013".
    QString matching(const QString& text) const
    {
        RunFilter filter;
        filter.setText(text);
        QString out;
        const RunList all = runs();
        for (int i = 0; i < all.size(); ++i) {
            if (filter.matches(*all[i]))
                out += QString::number(i);
        }
        return out;
    }

private slots:
    void grammar_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << ""
                               << "0123";
        QTest::newRow("word") << "huggingface"
                              << "1";
        QTest::newRow("words all hold") << "huggingface b200"
                                        << "1";
        QTest::newRow("words all hold, none") << "huggingface h100"
                                              << "";
        QTest::newRow("word without underscore") << "groupnorm"
                                                 << "0123";
        QTest::newRow("word in other case") << "GROUP_NORM Forward"
                                            << "2";
        QTest::newRow("channels=2048, numeric") << "channels=2048"
                                                << "12";
        QTest::newRow("channels=2048.0") << "channels=2048.0"
                                         << "12";
        QTest::newRow("channels:2048") << "channels:2048"
                                       << "12";
        QTest::newRow("channels>=2048") << "channels>=2048"
                                        << "123";
        QTest::newRow("channels>2048") << "channels>2048"
                                       << "3";
        QTest::newRow("channels<2048") << "channels<2048"
                                       << "0";
        QTest::newRow("channels<=2048") << "channels<=2048"
                                        << "012";
        QTest::newRow("channels!=2048") << "channels!=2048"
                                        << "03";
        QTest::newRow("gpu:b200 (product contains)") << "gpu:b200"
                                                     << "013";
        QTest::newRow("gpu=b200 (product without vendor)") << "gpu=b200"
                                                           << "013";
        QTest::newRow("gpu=nvidia-b200 (slug)") << "gpu=nvidia-b200"
                                                << "013";
        QTest::newRow("gpu:h100") << "gpu:H100"
                                  << "2";
        QTest::newRow("gpu!=b200") << "gpu!=b200"
                                   << "2";
        QTest::newRow("dtype=bf16") << "dtype=bf16"
                                    << "3";
        QTest::newRow("dtype=fp") << "dtype=fp"
                                  << "";
        QTest::newRow("dtype:fp") << "dtype:fp"
                                  << "012";
        QTest::newRow("provider=liger pass=backward") << "provider=liger pass=backward"
                                                      << "03";
        QTest::newRow("key case and underscores") << "Channels_Per_Group=4"
                                                  << "3";
        QTest::newRow("folded key") << "channelspergroup=4"
                                    << "3";
        QTest::newRow("kernel=groupnorm") << "kernel=groupnorm"
                                          << "0123";
        QTest::newRow("label") << "branch=main"
                               << "3";
        QTest::newRow("missing key matches nothing") << "hidden=512"
                                                     << "";
        QTest::newRow("comparison on text never holds") << "provider>a"
                                                        << "";
        QTest::newRow("combined") << "groupnorm backward channels>=2048 gpu:b200"
                                  << "13";
        QTest::newRow("a leading operator is a word") << "=2048"
                                                      << "";
        QTest::newRow("metric") << "metric=latency"
                                << "0123";
    }

    void grammar()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(matching(text), expected);
    }

    void parsesClauses()
    {
        const FilterClause c = RunFilter::parseClause(QStringLiteral("Channels_Per_Group>=1024"));
        QCOMPARE(int(c.op), int(FilterClause::Op::GreaterEqual));
        QCOMPARE(c.key, QByteArray("channelspergroup"));
        QCOMPARE(c.number, 1024.0);
        const FilterClause word = RunFilter::parseClause(QStringLiteral("Group_Norm"));
        QCOMPARE(int(word.op), int(FilterClause::Op::Word));
        QCOMPARE(word.value, QByteArray("groupnorm"));
        QCOMPARE(foldForFilter(u"B-200_x"), QByteArray("b200x"));
    }

    void facetsAndTextTogether()
    {
        RunFilter filter;
        filter.setText(QStringLiteral("channels=2048"));
        filter.setFacet(Facet::Provider, { QStringLiteral("liger") });
        QCOMPARE(filter.apply(runs()).size(), 1);
        QVERIFY(!filter.isEmpty());
        filter.setText(QStringLiteral("   "));
        filter.clearFacets();
        QVERIFY(filter.isEmpty());
    }

    // A run whose names come from its linked resources, not from a Liger slug (a leaderboard submission): bare
    // words find it by kernel/operation, implementation, sourceNative.benchmark, title and name.
    void wordsFindNamesOutsideTheSlug_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("matches");
        QTest::newRow("kernel, two words") << "amd fp8" << true;
        QTest::newRow("kernel, whole") << "amd-fp8-mm" << true;
        QTest::newRow("implementation") << "submission_4211" << true;
        QTest::newRow("benchmark") << "nvfp4_group_gemm" << true;
        QTest::newRow("benchmark without underscores") << "nvfp4groupgemm" << true;
        QTest::newRow("title") << "leaderboard entry" << true;
        QTest::newRow("name") << "gpumode-326" << true;
        QTest::newRow("a word it lacks") << "amd bf16" << false;
    }
    void wordsFindNamesOutsideTheSlug()
    {
        QFETCH(QString, text);
        QFETCH(bool, matches);
        auto run = std::make_shared<Run>();
        run->externalId = QStringLiteral("ki-run-0001"); // no kernel/pass/provider/... slug
        run->kernel = QStringLiteral("amd-fp8-mm");
        run->provider = QStringLiteral("submission_4211");
        run->benchmark = QStringLiteral("nvfp4_group_gemm");
        run->title = QStringLiteral("Leaderboard entry 4211");
        run->name = QStringLiteral("gpumode-326");
        run->finalize();
        RunFilter filter;
        filter.setText(text);
        QCOMPARE(filter.matches(*run), matches);
    }

    // Words are matched field by field (runs keep no search text); they find exactly the runs that the whole
    // search text found, as the filter matched it before: the word as typed, or folded with '_' and '-' skipped.
    void wordsFindWhatTheSearchTextFinds()
    {
        // the filter's word test as it was when every run kept its search text in one string
        auto reference = [](const QByteArray& hay, const FilterClause& c) {
            const QByteArray& needle = c.value;
            if (needle.isEmpty() || hay.contains(c.word) || hay.contains(needle))
                return true;
            const qsizetype n = hay.size();
            for (qsizetype i = 0; i < n; ++i) {
                if (hay[i] != needle[0])
                    continue;
                qsizetype h = i;
                qsizetype k = 0;
                for (; k < needle.size(); ++k) {
                    while (h < n && (hay[h] == '_' || hay[h] == '-'))
                        ++h;
                    if (h >= n || hay[h] != needle[k])
                        break;
                    ++h;
                }
                if (k == needle.size())
                    return true;
            }
            return false;
        };
        RunList all = runs();
        auto odd = std::make_shared<Run>(*all[1]);
        odd->externalId.clear();
        odd->gpuProduct = QStringLiteral("Ärger GPU-Ü");
        odd->status = QStringLiteral("runtime_error");
        odd->metric = Run::Metric::Other;
        odd->headlineMetric = QStringLiteral("Score");
        odd->title = QStringLiteral("Two Words_and-Dashes");
        odd->labels = { { QStringLiteral("Release Tag"), QStringLiteral("v1_2-3") },
            { QStringLiteral("zeta"), QStringLiteral("Last") } };
        odd->file = QStringLiteral("/data/Runs_2026.jsonl");
        odd->finalize();
        all.append(odd);
        const QStringList words = { "b200", "B200", "group_norm", "groupnorm", "group-norm", "gr_oup", "norm/backward",
            "liger", "h100-80gb", "80gbhbm3", "failed", "runtime_error", "runtimeerror", "score", "ärger", "ÄRGER",
            "gpü", "gpu-ü", "words", "wordsand", "and-dashes", "tag", "=v1", "=v12", "=v1_23", "=last", "main", "=main",
            "jsonl", "runs2026", "passed", "channels2048", "fp32", "/", "128", "nvidia", "h100", "a_b", "-" };
        for (const QString& word : words) {
            RunFilter filter;
            filter.setText(word);
            if (filter.clauses().isEmpty())
                continue;
            const FilterClause& c = filter.clauses().first();
            QVERIFY2(c.op == FilterClause::Op::Word, qPrintable(word));
            for (int pass = 0; pass < 2; ++pass) { // the second pass answers shared fields from the cache
                for (int i = 0; i < all.size(); ++i)
                    QVERIFY2(filter.matches(*all[i]) == reference(all[i]->searchText(), c),
                        qPrintable(QStringLiteral("%1 on run %2 (%3)")
                                       .arg(word)
                                       .arg(i)
                                       .arg(QString::fromUtf8(all[i]->searchText()))));
            }
        }
    }

    // The per-string answers belong to one clause: a new filter text, or a field given new text, answers anew.
    void sharedFieldsAnswerEachClause()
    {
        const QString title = QStringLiteral("Shared_Title");
        auto a = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 1024, 100);
        auto b = makeRun(QStringLiteral("torch"), QStringLiteral("NVIDIA B200"), 1024, 100);
        a->title = title;
        b->title = title;
        QCOMPARE(a->title.constData(), b->title.constData()); // one string, as the loader interns it
        RunFilter first;
        first.setText(QStringLiteral("sharedtitle"));
        RunFilter second;
        second.setText(QStringLiteral("othertitle"));
        for (int i = 0; i < 2; ++i) {
            QVERIFY(first.matches(*a) && first.matches(*b));
            QVERIFY(!second.matches(*a) && !second.matches(*b));
        }
        b->title = QStringLiteral("Other-Title");
        QVERIFY(!first.matches(*b));
        QVERIFY(second.matches(*b));
        QVERIFY(first.matches(*a));
        first.setText(QStringLiteral("sharedtitle")); // the same text parsed again answers the same
        QVERIFY(first.matches(*a) && !first.matches(*b));
    }

    void helpNamesTheGrammar()
    {
        const QString help = filterGrammarHelp();
        for (const char* needle : { "key=value", "key:value", ">=", "groupnorm" })
            QVERIFY2(help.contains(QLatin1String(needle)), needle);
    }
};

KIX_TEST_GUILESS_MAIN(TestRunFilter)
#include "tst_runfilter.moc"
