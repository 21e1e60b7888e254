// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/run.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

namespace kix {

// The facets the explorer filters by.
enum class Facet { Kernel, Pass, Provider, Gpu, Dtype, Source, Metric, Status };

QString facetName(Facet facet);
QString facetValue(const Run& run, Facet facet);
const QVector<Facet>& allFacets();

// The run's fields the filter reads, in groups that vary together (FilterIndex evaluates a clause once per distinct
// value of a group). Own fields are unique to each run.
enum FieldGroup : unsigned {
    WhatFields = 1, // kernel, pass, provider, title, benchmark, operation/implementation titles, authors, project
    GpuFields = 2, // gpuProduct, gpuSlug, gpuArchitecture
    WorkloadFields = 4, // workloadSlug, workloadTitle, dtype, workload parameters
    ContextFields = 8, // status, source, file, metric (and headlineMetric), labels
    OwnFields = 16, // externalId, name
    AllFieldGroups = 31,
};
// The group a facet's value comes from.
FieldGroup facetGroup(Facet facet);

// One clause of the filter text: a bare word, or `key OP value` with OP one of = : != > >= < <=.
struct FilterClause
{
    enum class Op { Word, Equals, Contains, NotEquals, Less, LessEqual, Greater, GreaterEqual };
    Op op = Op::Word;
    QByteArray key; // folded (lower case, without '_' and '-')
    QByteArray value; // folded
    QByteArray word; // a word as typed, lower case: found as it is in most runs' search text, the cheapest test
    QString text; // as typed
    double number = std::numeric_limits<double>::quiet_NaN(); // the value as a number, when it is one
    quint64 serial = 0; // unique to each parseClause(), for the filter's per-string cache (0: not cached)
};

// What the filter box, `--filter` and the facets select.
//
// Text (the grammar of the filter box and of --filter, see filterGrammarHelp()): whitespace-separated clauses, all
// of which must hold.
//   word            appears in one of the run's fields (externalId, GPU, status, source, file, labels)
//   key=value       the field or workload parameter `key` equals value (numbers numerically: channels=2048)
//   key:value       ... contains value (gpu:b200 matches "NVIDIA B200")
//   key!=value      ... does not equal value
//   key>N key>=N key<N key<=N   numeric comparisons (channels>=1024)
// Keys: kernel, pass, provider, gpu, dtype, source, metric, status, file, any workload parameter (batch, channels,
// hidden, ...) and any label. Words, keys and values ignore case, '_' and '-': "groupnorm" finds group_norm and
// "channelspergroup=4" finds channels_per_group4. A run without the key does not match a key clause.
// Facets: for each facet with a non-empty selection the run's value must be one of the selected values.
// The filter text's terms: split at spaces outside double quotes, the quotes dropped (key:"a value with spaces").
QStringList filterTerms(const QString& text);

class RunFilter
{
public:
    void setText(const QString& text);
    const QString& text() const { return m_text; }
    const QVector<FilterClause>& clauses() const { return m_clauses; }
    void setFacet(Facet facet, const QSet<QString>& values);
    QSet<QString> facet(Facet facet) const { return m_facets.value(facet); }
    void clearFacets() { m_facets.clear(); }
    bool isEmpty() const;

    bool matches(const Run& run) const;
    RunList apply(const RunList& runs) const;

    // Parses one clause ("channels>=1024"); a word when it has no operator or no key.
    static FilterClause parseClause(const QString& text);
    static bool clauseMatches(const FilterClause& clause, const Run& run);
    // The clause over only the fields of `groups`: `found` (a key clause: the run has the key there), `any` (a value
    // there matches; a word clause: the word is found there), `all` (every value there matches; true when none).
    // clauseMatches() is found && all for !=, else any, over every group.
    struct Parts
    {
        bool found = false;
        bool any = false;
        bool all = true;
    };
    static Parts clauseParts(const FilterClause& clause, const Run& run, unsigned groups);

private:
    QString m_text;
    QVector<FilterClause> m_clauses;
    QHash<Facet, QSet<QString>> m_facets;
};

// True when every run that `after`'s text accepts is accepted by `before`'s text too (facets aside), so that only
// the runs `before` accepted need testing: each clause of `before` is a word found inside a word of `after` ("b20"
// -> "b200", or a word added), or a clause `after` has as well. Key clauses that merely grew are not narrowing:
// channels<1 -> channels<10 widens.
bool filterTextNarrows(const RunFilter& before, const RunFilter& after);

// Lower case without '_' and '-' ("Group_Norm" -> "groupnorm"), the form every filter comparison uses.
QByteArray foldForFilter(QStringView text);

// The grammar in a few lines, for --help, the filter box's tooltip and Help > Guide.
QString filterGrammarHelp();
// One line for a command's --filter option.
QString filterOptionHelp();

} // namespace kix
