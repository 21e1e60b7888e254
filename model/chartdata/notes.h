// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QStringList>
#include <QVector>

#include <memory>

namespace kix {

// Notes of one kind fold into one line: notes that differ only in their numbers ("liger is noisy (p20–p80 spread
// 34% of the median)", "... 138% ...") are one kind, written once with each varying number as its range
// ("spread 11–138%"). Used where chart notes are made, so that a banner of 168 pairs reads in a few lines.
struct NoteKind
{
    QString text; // the note with each number that varies as "min–max"
    int count = 0; // notes of this kind
};

// The kinds in order of first appearance. A note that starts with "same " loses a parenthesised detail (a digest:
// "same workload digest (b199535c…)" is the kind "same workload digest").
QVector<NoteKind> noteKinds(const QStringList& notes);

// noteKinds() one note at a time, for notes spread over many lists (the pairs of a comparison). Each note added
// must stay alive until kinds(): notes are recognised by their address.
class NoteKindCounter
{
public:
    NoteKindCounter();
    ~NoteKindCounter();
    NoteKindCounter(const NoteKindCounter&) = delete;
    NoteKindCounter& operator=(const NoteKindCounter&) = delete;
    void add(const QString& note);
    QVector<NoteKind> kinds() const;

private:
    struct State;
    std::unique_ptr<State> m;
};

// noteKinds as lines: a kind seen once is its note; a kind seen n > 1 times gets " (×n)".
QStringList aggregateNotes(const QStringList& notes);

} // namespace kix
