// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/notes.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>
#include <array>

namespace kix {

namespace {

constexpr QChar placeholder(0x1);

// The note with its numbers replaced by a placeholder, and the numbers.
QString templateOf(const QString& note, const QRegularExpression& number, QStringList& numbers)
{
    QString text = note;
    if (text.startsWith(QLatin1String("same "))) {
        const qsizetype paren = text.indexOf(QLatin1String(" ("));
        if (paren > 0 && text.endsWith(QLatin1Char(')')))
            text.truncate(paren);
    }
    QString out;
    qsizetype last = 0;
    for (auto it = number.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(text).mid(last, m.capturedStart() - last);
        out += placeholder;
        numbers << m.captured();
        last = m.capturedEnd();
    }
    out += QStringView(text).mid(last);
    return out;
}

struct Group
{
    QString pattern;
    QVector<QStringList> numbers; // per distinct note, in order of first appearance: a repeat changes no range
    int count = 0; // notes
};

QString render(const Group& g)
{
    QString out;
    int slot = 0;
    for (QChar c : g.pattern) {
        if (c != placeholder) {
            out += c;
            continue;
        }
        QString lo = g.numbers.front()[slot], hi = lo;
        for (const QStringList& n : g.numbers) {
            if (n[slot].toDouble() < lo.toDouble())
                lo = n[slot];
            if (n[slot].toDouble() > hi.toDouble())
                hi = n[slot];
        }
        out += lo == hi ? lo : lo + QChar(0x2013) + hi;
        ++slot;
    }
    return out;
}

} // namespace

struct NoteKindCounter::State
{
    QHash<QString, int> index; // pattern -> group
    QHash<QString, QPair<int, QStringList>> seen; // note -> group and numbers: 100k pairs share a few notes
    QVector<Group> groups;
    // one per counter, not a shared static: data builders run on worker threads
    const QRegularExpression number { QStringLiteral("\\d+(?:\\.\\d+)?") };
    // The notes of 100k pairs are mostly shared copies of a few strings: the last ones seen are recognised by
    // their address (the notes stay alive meanwhile) before any hashing.
    struct Recent
    {
        const QChar* data = nullptr;
        qsizetype size = -1;
        int group = -1;
    };
    std::array<Recent, 8> recent;
    int nextRecent = 0;
};

NoteKindCounter::NoteKindCounter()
    : m(std::make_unique<State>())
{
}

NoteKindCounter::~NoteKindCounter() = default;

void NoteKindCounter::add(const QString& note)
{
    const auto hit = std::find_if(m->recent.begin(), m->recent.end(),
        [&note](const State::Recent& r) { return r.data && r.data == note.constData() && r.size == note.size(); });
    if (hit != m->recent.end()) {
        ++m->groups[hit->group].count;
        return;
    }
    auto known = m->seen.constFind(note);
    if (known == m->seen.constEnd()) {
        QStringList numbers;
        const QString pattern = templateOf(note, m->number, numbers);
        auto it = m->index.constFind(pattern);
        if (it == m->index.constEnd()) {
            it = m->index.insert(pattern, int(m->groups.size()));
            m->groups.append({ pattern, {}, 0 });
        }
        known = m->seen.insert(note, { *it, numbers });
        m->groups[*it].numbers.append(numbers);
    }
    ++m->groups[known->first].count;
    m->recent[size_t(m->nextRecent)] = { note.constData(), note.size(), known->first };
    m->nextRecent = (m->nextRecent + 1) % int(m->recent.size());
}

QVector<NoteKind> NoteKindCounter::kinds() const
{
    QVector<NoteKind> out;
    out.reserve(m->groups.size());
    for (const Group& g : std::as_const(m->groups))
        out.append({ render(g), g.count });
    return out;
}

QVector<NoteKind> noteKinds(const QStringList& notes)
{
    NoteKindCounter counter;
    for (const QString& note : notes)
        counter.add(note);
    return counter.kinds();
}

QStringList aggregateNotes(const QStringList& notes)
{
    QStringList out;
    for (const NoteKind& k : noteKinds(notes))
        out << (k.count == 1 ? k.text : QStringLiteral("%1 (×%2)").arg(k.text).arg(k.count));
    return out;
}

} // namespace kix
