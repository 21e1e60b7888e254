// SPDX-License-Identifier: Apache-2.0
#include "ui/models/issuetreemodel.h"

#include "ui/models/diagnosticsmodel.h"

#include <QApplication>
#include <QFileInfo>
#include <QHash>
#include <QLocale>
#include <QRegularExpression>
#include <QStyle>

#include <algorithm>

namespace kix {

namespace {

QString fileLabel(const QString& file)
{
    return file.isEmpty() ? QStringLiteral("(no file)") : QFileInfo(file).fileName();
}

// "40 errors", "3 errors, 12 warnings": only the kinds the group holds.
QString groupCount(int errors, int warnings)
{
    const QLocale locale;
    QStringList parts;
    if (errors > 0)
        parts
            << QStringLiteral("%1 error%2").arg(locale.toString(errors), errors == 1 ? QString() : QStringLiteral("s"));
    if (warnings > 0)
        parts << QStringLiteral("%1 warning%2")
                     .arg(locale.toString(warnings), warnings == 1 ? QString() : QStringLiteral("s"));
    return parts.join(QStringLiteral(", "));
}

} // namespace

QString issueLocation(const Diagnostic& d)
{
    QString where = fileLabel(d.file);
    QString pointer = d.pointer;
    if (d.line > 0) {
        where += QLatin1Char(':') + QString::number(d.line);
        if (d.column > 0)
            where += QLatin1Char(':') + QString::number(d.column);
        // JSON Lines: the pointer's first token is the line's 0-based index, which the line number already says
        const QString index = QLatin1Char('/') + QString::number(d.line - 1);
        if (pointer.startsWith(index)
            && (pointer.size() == index.size() || pointer.at(index.size()) == QLatin1Char('/')))
            pointer = pointer.mid(index.size());
    }
    if (!pointer.isEmpty())
        where += QStringLiteral(" · ") + pointer;
    return where;
}

QString problemPattern(const QString& message)
{
    static const QRegularExpression doubleQuoted(QStringLiteral("\"[^\"]*\""));
    static const QRegularExpression singleQuoted(QStringLiteral("(^|[\\s(:,])'[^'\\s]*'"));
    static const QRegularExpression figure(QStringLiteral("[\\w.:+-]*\\d[\\w.:+-]*"));
    QString pattern = message;
    pattern.replace(doubleQuoted, QStringLiteral("\"…\""));
    pattern.replace(singleQuoted, QStringLiteral("\\1'…'"));
    pattern.replace(figure, QStringLiteral("#"));
    return pattern;
}

IssueTreeModel::IssueTreeModel(DiagnosticsModel* source, QObject* parent)
    : QAbstractItemModel(parent)
    , m_source(source)
{
    connect(source, &QAbstractItemModel::rowsInserted, this, &IssueTreeModel::rebuild);
    connect(source, &QAbstractItemModel::modelReset, this, &IssueTreeModel::rebuild);
    rebuild();
}

void IssueTreeModel::setGrouping(Grouping grouping)
{
    if (grouping == m_grouping)
        return;
    m_grouping = grouping;
    rebuild();
}

void IssueTreeModel::setFilterText(const QString& text)
{
    if (text == m_filter)
        return;
    m_filter = text;
    rebuild();
}

int IssueTreeModel::shownErrors() const
{
    return m_nodes.front().errors;
}

int IssueTreeModel::shownWarnings() const
{
    return m_nodes.front().warnings;
}

const Diagnostic& IssueTreeModel::diagnostic(const Node& n) const
{
    return m_source->diagnostics()[n.diagnostic];
}

bool IssueTreeModel::isFileNode(const Node& n) const
{
    return (n.depth == 1) == (m_grouping == Grouping::ByFile) && n.depth < 3;
}

int IssueTreeModel::child(int parent, const QString& key, QHash<QString, int>& keys, int diagnostic)
{
    const QString full = QString::number(parent) + QLatin1Char('\x1f') + key;
    auto it = keys.constFind(full);
    if (it != keys.constEnd())
        return *it;
    Node n;
    n.parent = parent;
    n.depth = m_nodes[parent].depth + 1;
    n.diagnostic = diagnostic;
    const int id = int(m_nodes.size());
    m_nodes.append(n);
    m_nodes[parent].children.append(id);
    keys.insert(full, id);
    return id;
}

void IssueTreeModel::rebuild()
{
    beginResetModel();
    m_nodes.clear();
    m_nodes.append(Node {});
    const QStringList words = m_filter.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    const Diagnostics& all = m_source->diagnostics();
    QHash<QString, int> keys;
    for (int i = 0; i < all.size(); ++i) {
        const Diagnostic& d = all[i];
        const QString severity = d.isError() ? QStringLiteral("error") : QStringLiteral("warning");
        if (!words.isEmpty()) {
            const QString text = issueLocation(d) + QLatin1Char(' ') + severity + QLatin1Char(' ') + d.message
                + QLatin1Char(' ') + d.file;
            if (!std::all_of(words.begin(), words.end(),
                    [&text](const QString& w) { return text.contains(w, Qt::CaseInsensitive); }))
                continue;
        }
        const QString pattern = severity + QLatin1Char(' ') + problemPattern(d.message);
        const bool byFile = m_grouping == Grouping::ByFile;
        const int first = child(0, byFile ? d.file : pattern, keys, i);
        const int second = child(first, byFile ? pattern : d.file, keys, i);
        Node leaf;
        leaf.parent = second;
        leaf.depth = 3;
        leaf.diagnostic = i;
        m_nodes[second].children.append(int(m_nodes.size()));
        m_nodes.append(leaf);
        const int problem = byFile ? second : first;
        m_nodes[problem].mixed = m_nodes[problem].mixed || all[m_nodes[problem].diagnostic].message != d.message;
        for (const int id : { 0, first, second, int(m_nodes.size()) - 1 }) {
            Node& n = m_nodes[id];
            (d.isError() ? n.errors : n.warnings) += 1;
            n.latest = i;
        }
    }
    // Newest first; within a file, errors before warnings, then the commonest problem first.
    auto newest = [this](int a, int b) { return m_nodes[a].latest > m_nodes[b].latest; };
    auto problemOrder = [this](int a, int b) {
        const Node& x = m_nodes[a];
        const Node& y = m_nodes[b];
        if ((x.errors > 0) != (y.errors > 0))
            return x.errors > 0;
        if (x.errors + x.warnings != y.errors + y.warnings)
            return x.errors + x.warnings > y.errors + y.warnings;
        return x.diagnostic < y.diagnostic;
    };
    QVector<int>& top = m_nodes[0].children;
    std::stable_sort(top.begin(), top.end(), newest);
    for (const int id : top) {
        QVector<int>& second = m_nodes[id].children;
        if (m_grouping == Grouping::ByFile)
            std::stable_sort(second.begin(), second.end(), problemOrder);
        else
            std::stable_sort(second.begin(), second.end(), newest);
    }
    for (Node& n : m_nodes)
        for (int row = 0; row < n.children.size(); ++row)
            m_nodes[n.children[row]].row = row;
    endResetModel();
}

QModelIndex IssueTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    const int id = parent.isValid() ? int(parent.internalId()) : 0;
    if (id < 0 || id >= m_nodes.size() || row < 0 || row >= m_nodes[id].children.size() || column < 0
        || column >= ColumnCount)
        return {};
    return createIndex(row, column, quintptr(m_nodes[id].children[row]));
}

QModelIndex IssueTreeModel::parent(const QModelIndex& index) const
{
    if (!index.isValid())
        return {};
    const int parent = m_nodes[int(index.internalId())].parent;
    if (parent <= 0)
        return {};
    return createIndex(m_nodes[parent].row, 0, quintptr(parent));
}

int IssueTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(m_nodes[parent.isValid() ? int(parent.internalId()) : 0].children.size());
}

int IssueTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant IssueTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const Node& n = m_nodes[int(index.internalId())];
    const Diagnostic& d = diagnostic(n);
    const bool file = isFileNode(n);
    switch (role) {
    case ErrorsRole:
        return n.errors;
    case WarningsRole:
        return n.warnings;
    case DiagnosticRole:
        return n.depth == 3 ? n.diagnostic : -1;
    case Qt::ToolTipRole:
        if (file)
            return d.file.isEmpty() ? fileLabel(d.file) : d.file;
        return n.depth == 3 ? d.toString() : d.message;
    case Qt::DecorationRole: {
        if (index.column() != IssueColumn || !qobject_cast<QApplication*>(QCoreApplication::instance()))
            return {};
        if (file)
            return QApplication::style()->standardIcon(QStyle::SP_FileIcon);
        return QApplication::style()->standardIcon(
            n.errors > 0 ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning);
    }
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    if (index.column() == CountColumn) {
        if (n.depth == 3)
            return d.isError() ? QStringLiteral("error") : QStringLiteral("warning");
        return groupCount(n.errors, n.warnings);
    }
    if (file)
        return fileLabel(d.file);
    if (n.depth < 3) // a problem: its message, or the pattern when its messages differ
        return n.mixed ? problemPattern(d.message) : d.message;
    const int problem = m_grouping == Grouping::ByFile ? n.parent : m_nodes[n.parent].parent;
    return m_nodes[problem].mixed ? issueLocation(d) + QStringLiteral(" — ") + d.message : issueLocation(d);
}

QVariant IssueTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    if (section == IssueColumn)
        return m_grouping == Grouping::ByFile ? QStringLiteral("File · problem · where")
                                              : QStringLiteral("Problem · file · where");
    if (section == CountColumn)
        return QStringLiteral("Count");
    return {};
}

} // namespace kix
