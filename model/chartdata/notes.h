// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QStringList>
#include <QVector>

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

// noteKinds as lines: a kind seen once is its note; a kind seen n > 1 times gets " (×n)".
QStringList aggregateNotes(const QStringList& notes);

} // namespace kix
