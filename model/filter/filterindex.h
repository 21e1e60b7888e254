// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/filter/runfilter.h"

#include <QMultiHash>

#include <memory>
#include <vector>

namespace kix {

// The filter's columns over a list of runs: for each group of shared fields (FieldGroup: what, GPU, workload,
// context) a small integer per run naming its distinct value, and a run holding each value. A filter is then
// evaluated once per distinct value of each group (Matcher), and per run only by looking its ids up; a word that no
// shared field holds is searched for in the run's own fields (externalId, name) alone. 2 or 4 bytes per run and
// group, no search text.
//
// Immutable once built: extend() makes a copy that also covers rows appended since, so that a worker may read one
// while another is made.
class FilterIndex
{
public:
    static constexpr int GroupCount = 4; // the shared groups, in FieldGroup's order (own fields have no column)

    // `base` (null: none) extended over the runs after those it covers. When `runs` does not begin with the runs
    // `base` indexed (its last run differs), the index is built anew.
    static std::shared_ptr<const FilterIndex> extend(
        const std::shared_ptr<const FilterIndex>& base, const RunList& runs);

    qsizetype size() const { return m_size; }
    // Distinct values of a group (0..GroupCount-1), and the one of a run.
    int valueCount(int group) const { return int(m_groups[size_t(group)].values.size()); }
    quint32 valueOf(int group, qsizetype row) const { return m_groups[size_t(group)].ids.at(size_t(row)); }
    static unsigned groupBit(int group) { return 1u << group; }
    static int groupOf(FieldGroup bit)
    {
        int g = 0;
        while (g + 1 < GroupCount && groupBit(g) != unsigned(bit))
            ++g;
        return g;
    }
    // A run holding a group's value.
    const Run& valueRun(int group, int value) const { return *m_groups[size_t(group)].values[value]; }

    // A filter prepared over an index: matches(row, runs) is filter.matches(*runs[row]) for every row the index
    // covers. Cheap to make (a few clause tests per distinct value); safe to use from several threads at once.
    class Matcher
    {
    public:
        Matcher(const FilterIndex& index, const RunFilter& filter);
        bool matches(qsizetype row, const RunList& runs) const;
        // accepted[i] = matches(i, runs) for the rows in [begin, end) where accepted[i] is set (the others stay 0).
        void filterRows(qsizetype begin, qsizetype end, const RunList& runs, char* accepted) const;

    private:
        // By the row's ids: 0 no, 1 yes; a word clause its ids do not find is asked of word(clause): 1 found, 0 not,
        // -1 not decided here (then the answer is 2, unless another clause says no).
        template<typename Word>
        int decide(qsizetype row, Word&& word) const;
        int sharedAnswer(
            qsizetype row) const; // by the ids alone: 0 no, 1 yes, 2 a word is to be found in its own fields
        struct Clause
        {
            const FilterClause* clause;
            enum Kind { Word, NotEquals, Other } kind;
            std::vector<quint8> codes[GroupCount]; // per value: 1 any, 2 found, 4 all
        };
        const FilterIndex& m_index;
        std::vector<Clause> m_clauses;
        std::vector<char> m_facetOk[GroupCount]; // per value, the facets of the group (empty: none selected)
        bool m_never = false; // a facet selection no value holds
    };

private:
    // Run ids of one group: 16 bits while they fit, then 32.
    class IdColumn
    {
    public:
        void push(quint32 id);
        quint32 at(size_t row) const { return m_wide ? m_ids32[row] : m_ids16[row]; }
        void reserve(size_t n);

    private:
        std::vector<quint16> m_ids16;
        std::vector<quint32> m_ids32;
        bool m_wide = false;
    };
    struct Group
    {
        IdColumn ids;
        RunList values; // a run holding each distinct value
        QMultiHash<size_t, quint32> byHash;
    };
    void append(const RunList& runs, qsizetype from);

    Group m_groups[GroupCount];
    qsizetype m_size = 0;
    const Run* m_last = nullptr; // the last run indexed (extend() checks that the runs still begin the same)
};

} // namespace kix
