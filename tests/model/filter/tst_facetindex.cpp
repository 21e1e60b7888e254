// SPDX-License-Identifier: Apache-2.0
// Facet values and drill-down counts, checked against RunFilter on every run.
#include "model/filter/facetindex.h"

#include "tests/model/runfactory.h"

#include "tests/support/testmain.h"

#include <QTest>

using namespace kix;

class TestFacetIndex : public QObject
{
    Q_OBJECT
private slots:
    void values();
    void counts_data();
    void counts();
    void typingNarrowsAndWidens();
};

void TestFacetIndex::values()
{
    FacetIndex index;
    index.setRuns(kixtest::allUiFixtures());
    QCOMPARE(index.runCount(), 35);
    QCOMPARE(index.values(Facet::Provider), (QStringList { QStringLiteral("huggingface"), QStringLiteral("liger") }));
    QCOMPARE(index.values(Facet::Pass),
        (QStringList { QStringLiteral("backward"), QStringLiteral("forward"), QStringLiteral("full") }));
    QCOMPARE(index.values(Facet::Metric), (QStringList { QStringLiteral("latency"), QStringLiteral("memory") }));
    QCOMPARE(index.values(Facet::Gpu).size(), 3);
}

void TestFacetIndex::counts_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("providers");
    QTest::addColumn<QStringList>("gpus");
    QTest::newRow("nothing") << QString() << QStringList() << QStringList();
    QTest::newRow("text") << QStringLiteral("group_norm backward b200") << QStringList() << QStringList();
    QTest::newRow("provider") << QString() << QStringList { QStringLiteral("liger") } << QStringList();
    QTest::newRow("provider and gpu") << QStringLiteral("channels2048") << QStringList { QStringLiteral("liger") }
                                      << QStringList { QStringLiteral("NVIDIA B200"),
                                             QStringLiteral("NVIDIA A100-SXM4-80GB") };
    QTest::newRow("no match") << QStringLiteral("nothing-like-this") << QStringList() << QStringList();
}

void TestFacetIndex::counts()
{
    QFETCH(QString, text);
    QFETCH(QStringList, providers);
    QFETCH(QStringList, gpus);
    const RunList runs = kixtest::allUiFixtures();
    FacetIndex index;
    index.setRuns(runs);
    RunFilter filter;
    filter.setText(text);
    filter.setFacet(Facet::Provider, QSet<QString>(providers.begin(), providers.end()));
    filter.setFacet(Facet::Gpu, QSet<QString>(gpus.begin(), gpus.end()));
    const FacetIndex::Counts counts = index.count(filter);
    QCOMPARE(counts.matching, int(filter.apply(runs).size()));

    // A value's count = runs the table would show with that facet's selection replaced by the value alone.
    for (int f = 0; f < index.facets().size(); ++f) {
        const Facet facet = index.facets()[f];
        const QStringList& values = index.values(facet);
        for (int v = 0; v < values.size(); ++v) {
            RunFilter drill = filter;
            drill.setFacet(facet, { values[v] });
            QCOMPARE(counts.perFacet[f][v], int(drill.apply(runs).size()));
        }
    }
    // Asking again (cached text) gives the same answer.
    QCOMPARE(index.count(filter).perFacet, counts.perFacet);
}

void TestFacetIndex::typingNarrowsAndWidens()
{
    // The cached text matches are narrowed while typing forward; every step must equal a fresh count.
    const RunList runs = kixtest::allUiFixtures();
    FacetIndex typed;
    typed.setRuns(runs);
    const QStringList steps = { QStringLiteral("g"), QStringLiteral("gr"), QStringLiteral("group_norm"),
        QStringLiteral("group_norm b"), QStringLiteral("group_norm b2"), QStringLiteral("group_norm b200"),
        QStringLiteral("b200 group_norm"), QStringLiteral("group_norm b20"), QStringLiteral("h100"),
        QStringLiteral("h100 liger"), QString(), QStringLiteral("FORWARD") };
    for (const QString& text : steps) {
        RunFilter filter;
        filter.setText(text);
        FacetIndex fresh;
        fresh.setRuns(runs);
        const FacetIndex::Counts expected = fresh.count(filter);
        const FacetIndex::Counts actual = typed.count(filter);
        QCOMPARE(actual.matching, int(filter.apply(runs).size()));
        QCOMPARE(actual.matching, expected.matching);
        QCOMPARE(actual.perFacet, expected.perFacet);
    }
}

KIX_TEST_GUILESS_MAIN(TestFacetIndex)
#include "tst_facetindex.moc"
