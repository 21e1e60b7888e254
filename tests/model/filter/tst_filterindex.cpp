// SPDX-License-Identifier: Apache-2.0
// The filter's columns (FilterIndex) answer exactly what RunFilter::matches answers, run by run: words found in a
// shared field or only in the run's own fields, every key and operator (a key that is both a workload parameter
// and a label included), facets, non-ASCII text, failed runs, rows appended after the index was built.
#include "model/filter/facetindex.h"
#include "model/filter/filterindex.h"
#include "model/filter/rowmapping.h"
#include "model/filter/runfilter.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <algorithm>

using namespace kix;

class TestFilterIndex : public QObject
{
    Q_OBJECT

private:
    // Varied runs: fields drawn from small lists (so that groups repeat), own fields unique, a run every 7 with
    // labels, some sharing one list, non-ASCII kernels, titles and labels.
    static RunList variedRuns(int count, int seed = 1)
    {
        const QStringList kernels = { QStringLiteral("group_norm"), QStringLiteral("rms-norm"),
            QStringLiteral("Größe_Norm"), QStringLiteral("softmax") };
        const QStringList passes = { QStringLiteral("forward"), QStringLiteral("backward"), QStringLiteral("full") };
        const QStringList providers
            = { QStringLiteral("liger"), QStringLiteral("huggingface"), QStringLiteral("Torch") };
        const QStringList products = { QStringLiteral("NVIDIA B200"), QStringLiteral("NVIDIA H100 80GB HBM3"),
            QStringLiteral("AMD Instinct MI300X"), QString() };
        const QStringList archs
            = { QStringLiteral("sm_100"), QStringLiteral("sm_90"), QStringLiteral("gfx942"), QString() };
        const QStringList statuses = { QStringLiteral("passed"), QStringLiteral("passed"), QStringLiteral("timeout"),
            QStringLiteral("failed"), QStringLiteral("incorrect_numerical") };
        const QStringList sources
            = { QStringLiteral("liger-kernel-bench"), QStringLiteral("kix-engine"), QStringLiteral("leaderboard") };
        const QStringList titles
            = { QStringLiteral("GroupNorm · liger · forward"), QString(), QStringLiteral("Übersicht Lauf") };
        const QStringList dtypes = { QStringLiteral("fp32"), QStringLiteral("bf16") };
        const QVector<KeyValue> sharedLabels = { { QStringLiteral("branch"), QStringLiteral("main") },
            { QStringLiteral("batch"), QStringLiteral("64") } };
        quint32 state = quint32(seed) * 2654435761u + 1;
        auto next = [&state](int n) {
            state = state * 1664525u + 1013904223u;
            return int((state >> 8) % quint32(n));
        };
        RunList runs;
        for (int i = 0; i < count; ++i) {
            auto run = std::make_shared<Run>();
            run->kernel = kernels[next(kernels.size())];
            run->pass = passes[next(passes.size())];
            run->provider = providers[next(providers.size())];
            const int g = next(products.size());
            run->gpuProduct = products[g];
            run->gpuSlug
                = g == 3 ? QStringLiteral("cpu") : products[g].toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
            run->gpuArchitecture = archs[g];
            run->title = titles[next(titles.size())];
            run->benchmark = run->kernel + QLatin1Char('/') + run->pass;
            run->status = statuses[next(statuses.size())];
            run->source = sources[next(sources.size())];
            run->file = QStringLiteral("/data/bundle-%1.jsonl").arg(next(3));
            run->dtype = dtypes[next(dtypes.size())];
            const int batch = 8 << next(3);
            const int channels = 512 << next(3);
            run->workload = { { QStringLiteral("batch"), QString::number(batch), double(batch) },
                { QStringLiteral("channels"), QString::number(channels), double(channels) } };
            if (next(4) == 0)
                run->workload.append({ QStringLiteral("mode"), QStringLiteral("fast"), std::nan("") });
            run->workloadSlug = QStringLiteral("batch%1-channels%2-%3").arg(batch).arg(channels).arg(run->dtype);
            run->externalId = QStringLiteral("%1/%2/%3/%4/%5/2026-01-%6-run%7")
                                  .arg(run->kernel, run->pass, run->provider, run->gpuSlug, run->workloadSlug)
                                  .arg(1 + i % 28)
                                  .arg(i);
            run->name = i % 3 == 0 ? run->externalId : QStringLiteral("Läufer-%1-ZQX%2").arg(i).arg(i % 11);
            const int m = next(6);
            if (m == 0) {
                run->metric = Run::Metric::Memory;
                run->unit = QStringLiteral("MB");
            } else if (m == 1) {
                run->metric = Run::Metric::Other;
                run->headlineMetric = QStringLiteral("score");
                run->unit = QStringLiteral("s");
            }
            if (i % 7 == 0)
                run->labels = sharedLabels;
            else if (i % 7 == 1)
                run->labels = { { QStringLiteral("liger_version"), QStringLiteral("0.%1.0").arg(next(3)) },
                    { QStringLiteral("Ort"), QStringLiteral("Zürich") } };
            run->median = 100 + i;
            run->finalize();
            runs.append(run);
        }
        return runs;
    }

    static QStringList clauses()
    {
        return { QStringLiteral("group_norm"), QStringLiteral("groupnorm"), QStringLiteral("GROUP-NO"),
            QStringLiteral("norm"), QStringLiteral("größe"), QStringLiteral("GRÖSSE"), QStringLiteral("größenorm"),
            QStringLiteral("übersicht"), QStringLiteral("b200"), QStringLiteral("h100"), QStringLiteral("sm_9"),
            QStringLiteral("gfx"), QStringLiteral("cpu"), QStringLiteral("backward"), QStringLiteral("forward"),
            QStringLiteral("liger"), QStringLiteral("torch"), QStringLiteral("failed"), QStringLiteral("timeout"),
            QStringLiteral("incorrect"), QStringLiteral("passed"), QStringLiteral("score"), QStringLiteral("memory"),
            QStringLiteral("latency"), QStringLiteral("bundle-1"), QStringLiteral("channels1024"),
            QStringLiteral("bf16"), QStringLiteral("branch=main"), QStringLiteral("=main"), QStringLiteral("zürich"),
            QStringLiteral("ort=zü"), QStringLiteral("run12"), QStringLiteral("2026-01-1"), QStringLiteral("läufer"),
            QStringLiteral("zqx1"), QStringLiteral("zqx10"), QStringLiteral("/"), QStringLiteral("m/b"),
            QStringLiteral("nothing-like-it"), QStringLiteral("kernel=group_norm"), QStringLiteral("kernel:norm"),
            QStringLiteral("kernel!=softmax"), QStringLiteral("pass=full"), QStringLiteral("provider:ORC"),
            QStringLiteral("gpu=b200"), QStringLiteral("gpu:nvidia"), QStringLiteral("gpu!=b200"),
            QStringLiteral("gpu!=cpu"), QStringLiteral("arch=sm_100"), QStringLiteral("architecture:gfx"),
            QStringLiteral("dtype=bf16"), QStringLiteral("dtype!=fp32"), QStringLiteral("source:bench"),
            QStringLiteral("status=passed"), QStringLiteral("status!=passed"), QStringLiteral("metric=memory"),
            QStringLiteral("metric=latency"), QStringLiteral("file:bundle-2"), QStringLiteral("workload:channels2048"),
            QStringLiteral("batch=64"), QStringLiteral("batch!=64"), QStringLiteral("batch>=16"),
            QStringLiteral("batch<16"), QStringLiteral("channels>1024"), QStringLiteral("channels<=1024"),
            QStringLiteral("mode=fast"), QStringLiteral("mode!=fast"), QStringLiteral("branch=main"),
            QStringLiteral("branch!=main"), QStringLiteral("ligerversion=0.1.0"), QStringLiteral("liger_version>0.1"),
            QStringLiteral("ort=zürich"), QStringLiteral("ORT:ZÜ"), QStringLiteral("hidden=512"),
            QStringLiteral("hidden!=512"), QStringLiteral("provider>a") };
    }

    // Every run of `runs` the index's matcher accepts is one the filter accepts, and the other way round.
    static void expectSameAnswers(const FilterIndex& index, const RunList& runs, const RunFilter& filter)
    {
        const FilterIndex::Matcher matcher(index, filter);
        // the rows' answers in one go, rows already set aside (every third) staying so
        std::vector<char> accepted(size_t(runs.size()), 1);
        for (size_t i = 0; i < accepted.size(); i += 3)
            accepted[i] = 0;
        matcher.filterRows(0, runs.size(), runs, accepted.data());
        for (qsizetype i = 0; i < runs.size(); ++i) {
            const bool expected = i % 3 != 0 && filter.matches(*runs[i]);
            if (bool(accepted[size_t(i)]) != expected)
                QFAIL(qPrintable(
                    QStringLiteral("filterRows: \"%1\": run %2 (%3)").arg(filter.text()).arg(i).arg(runs[i]->name)));
        }
        for (qsizetype i = 0; i < runs.size(); ++i) {
            if (matcher.matches(i, runs) != filter.matches(*runs[i]))
                QFAIL(qPrintable(QStringLiteral("\"%1\" (%2 facets): run %3 (%4, %5): the filter says %6")
                                     .arg(filter.text())
                                     .arg(int(std::count_if(allFacets().cbegin(), allFacets().cend(),
                                         [&](Facet f) { return !filter.facet(f).isEmpty(); })))
                                     .arg(i)
                                     .arg(runs[i]->externalId, runs[i]->name)
                                     .arg(filter.matches(*runs[i]))));
        }
    }

private slots:
    void groupsRepeat()
    {
        const RunList runs = variedRuns(600);
        const auto index = FilterIndex::extend(nullptr, runs);
        QCOMPARE(index->size(), runs.size());
        for (int g = 0; g < FilterIndex::GroupCount; ++g) {
            QVERIFY(index->valueCount(g) > 1);
            QVERIFY2(index->valueCount(g) < 300, "runs that share a group's fields share its value");
            for (qsizetype i = 0; i < runs.size(); i += 7) { // a run and the run standing for its value agree
                const Run& held = index->valueRun(g, int(index->valueOf(g, i)));
                const QString field[] = { held.kernel, held.gpuProduct, held.workloadSlug, held.file };
                const QString own[] = { runs[i]->kernel, runs[i]->gpuProduct, runs[i]->workloadSlug, runs[i]->file };
                QCOMPARE(field[g], own[g]);
            }
        }
    }

    void singleClausesAnswerAsTheFilter()
    {
        const RunList runs = variedRuns(600);
        const auto index = FilterIndex::extend(nullptr, runs);
        int matchedSome = 0;
        for (const QString& text : clauses()) {
            RunFilter filter;
            filter.setText(text);
            expectSameAnswers(*index, runs, filter);
            const qsizetype n = filter.apply(runs).size();
            matchedSome += n > 0 && n < runs.size() ? 1 : 0;
        }
        QVERIFY2(matchedSome > 40, "the clauses split the runs (a test that every answer is 'all' proves little)");
    }

    void clausePairsAndFacetsAnswerAsTheFilter()
    {
        const RunList runs = variedRuns(400, 7);
        const auto index = FilterIndex::extend(nullptr, runs);
        const QStringList all = clauses();
        for (int i = 0; i < all.size(); ++i) {
            RunFilter filter;
            filter.setText(all[i] + QLatin1Char(' ') + all[(i * 7 + 3) % all.size()]);
            expectSameAnswers(*index, runs, filter);
            if (i % 3 == 0)
                filter.setFacet(Facet::Provider, { QStringLiteral("liger"), QStringLiteral("Torch") });
            if (i % 4 == 0)
                filter.setFacet(Facet::Gpu, { QStringLiteral("NVIDIA B200"), QStringLiteral("cpu") });
            if (i % 5 == 0)
                filter.setFacet(Facet::Status, { QStringLiteral("timeout") });
            if (i % 6 == 0)
                filter.setFacet(Facet::Metric, { QStringLiteral("memory") });
            if (i % 7 == 0)
                filter.setFacet(Facet::Dtype, { QStringLiteral("bf16") });
            expectSameAnswers(*index, runs, filter);
        }
        RunFilter none; // a facet value no run has
        none.setFacet(Facet::Kernel, { QStringLiteral("no such kernel") });
        expectSameAnswers(*index, runs, none);
    }

    void appendedRowsAreIndexed()
    {
        const RunList runs = variedRuns(500, 3);
        const RunList first = runs.mid(0, 200);
        const auto base = FilterIndex::extend(nullptr, first);
        QCOMPARE(base->size(), 200);
        const auto extended = FilterIndex::extend(base, runs);
        QCOMPARE(base->size(), 200); // immutable: a worker may still read it
        QCOMPARE(extended->size(), runs.size());
        QVERIFY(FilterIndex::extend(extended, runs) == extended); // nothing new: the same index
        for (const QString& text : clauses()) {
            RunFilter filter;
            filter.setText(text);
            expectSameAnswers(*extended, runs, filter);
            expectSameAnswers(*base, first, filter);
        }
        // Other runs than those indexed: built anew, not extended.
        const RunList other = variedRuns(300, 11);
        const auto rebuilt = FilterIndex::extend(base, other);
        QCOMPARE(rebuilt->size(), other.size());
        for (const QString& text : clauses()) {
            RunFilter filter;
            filter.setText(text);
            expectSameAnswers(*rebuilt, other, filter);
        }
    }

    void ownFieldsAreSearchedAtEveryPosition()
    {
        // The own fields' scan looks for the first character 8 UTF-16 code units at a time: a word at every offset,
        // across a block's end, with separators and upper case in the field, and a non-ASCII character before or
        // after it, answers as the run's search text does (the word as typed, or folded with '_' and '-' skipped).
        RunList runs;
        for (int offset = 0; offset < 26; ++offset) {
            for (const QString& tail :
                { QString(), QStringLiteral("qq"), QStringLiteral("qé"), QStringLiteral("qqqqqqqqqqq") }) {
                auto run = std::make_shared<Run>();
                run->externalId = QString(offset, QLatin1Char('q')) + QStringLiteral("Ab_C-dEfghiJ") + tail;
                run->name = offset % 5 == 0 ? QStringLiteral("É") + run->externalId : QStringLiteral("n%1").arg(offset);
                runs.append(run);
            }
        }
        const auto index = FilterIndex::extend(nullptr, runs);
        auto stripped = [](QByteArray s) { return s.replace('_', "").replace('-', ""); };
        for (const QString& word : { QStringLiteral("abc"), QStringLiteral("ab_c"), QStringLiteral("a-b-c"),
                 QStringLiteral("ABCDEFGHIJ"), QStringLiteral("cdefghij"), QStringLiteral("jqq"), QStringLiteral("jqé"),
                 QStringLiteral("éq"), QStringLiteral("qab"), QStringLiteral("bcx"), QStringLiteral("j"),
                 QStringLiteral("qqqqqqqqqa"), QStringLiteral("ée") }) {
            RunFilter filter;
            filter.setText(word);
            const FilterClause& c = filter.clauses().constFirst();
            int found = 0;
            for (const RunPtr& run : std::as_const(runs)) {
                const QByteArray text = run->searchText();
                const bool expected = text.contains(c.word) || stripped(text).contains(c.value);
                QVERIFY2(filter.matches(*run) == expected, qPrintable(word + QLatin1Char(' ') + run->externalId));
                found += expected ? 1 : 0;
            }
            if (word != QStringLiteral("bcx") && word != QStringLiteral("ée"))
                QVERIFY2(found > 0, qPrintable(word));
            expectSameAnswers(*index, runs, filter);
        }
    }

    void sixteenBitIdsWiden()
    {
        // More than 65,536 distinct values of a group: the column widens and keeps its ids.
        RunList runs;
        const int n = 70'000;
        runs.reserve(n);
        for (int i = 0; i < n; ++i) {
            auto run = std::make_shared<Run>();
            run->kernel = QStringLiteral("k%1").arg(i);
            run->status = i % 2 ? QStringLiteral("passed") : QStringLiteral("timeout");
            runs.append(run);
        }
        const auto index = FilterIndex::extend(nullptr, runs);
        QCOMPARE(index->valueCount(0), n);
        QCOMPARE(index->valueOf(0, n - 1), quint32(n - 1));
        QCOMPARE(index->valueOf(0, 3), quint32(3));
        RunFilter filter;
        filter.setText(QStringLiteral("kernel=k69999"));
        const FilterIndex::Matcher matcher(*index, filter);
        QVERIFY(matcher.matches(n - 1, runs));
        QVERIFY(!matcher.matches(n - 2, runs));
        QVERIFY(!matcher.matches(3, runs));
    }

    void rowMappingAndFacetCountsFollowTheFilter()
    {
        const RunList runs = variedRuns(500, 5);
        FacetIndex facets;
        facets.setRuns(runs);
        RowMappingInput in;
        in.runs = runs;
        for (const QString& text : { QStringLiteral("norm b200"), QStringLiteral("zqx1 batch>=16"),
                 QStringLiteral("failed"), QStringLiteral("größe gpu!=b200") }) {
            in.filter.setText(text);
            const RowMapping mapping = computeRowMapping(in);
            QVERIFY(mapping.index);
            QCOMPARE(mapping.index->size(), runs.size());
            QCOMPARE(mapping.visible, in.filter.apply(runs));
            in.index = mapping.index; // the next one reuses it
            // the facets' counts are those of the runs the text accepts
            const FacetIndex::Counts counts = facets.count(in.filter);
            QCOMPARE(counts.matching, int(mapping.visible.size()));
            const QStringList& statuses = facets.values(Facet::Status);
            for (int v = 0; v < statuses.size(); ++v) {
                int expected = 0;
                for (const RunPtr& r : mapping.visible)
                    expected += r->status == statuses[v] ? 1 : 0;
                QCOMPARE(counts.perFacet[allFacets().indexOf(Facet::Status)][v], expected);
            }
        }
    }
};

KIX_TEST_GUILESS_MAIN(TestFilterIndex)
#include "tst_filterindex.moc"
