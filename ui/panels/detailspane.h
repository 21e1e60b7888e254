// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/run.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;
QT_END_NAMESPACE

namespace kix {

// Everything about the current run: every field, the four digests, the protocol's comparability notes (always in
// view above the tabs) and the document's raw JSON, pretty-printed in its original key order. No value is cut: a
// value wraps at its words to the column's width, one without spaces (a digest, a path) is elided in the middle,
// and every value carries its full text as its tooltip. Values copy: Ctrl+C or the context menu copies the current
// value (several selected rows as "field<TAB>value" lines), and "Copy all" copies the whole run's details as text.
class DetailsPane : public QWidget
{
    Q_OBJECT
public:
    explicit DetailsPane(QWidget* parent = nullptr);

    void setRun(const RunPtr& run);
    // No run: empty fields and `hint` (why, and what to select) under the header.
    void clearRun(const QString& hint);
    QString headerText() const;
    RunPtr run() const { return m_run; }

    QTreeWidget* fields() const { return m_fields; }
    QPlainTextEdit* rawJson() const { return m_json; }
    QString comparabilityText() const;

    // `text` with a zero-width space after each _ / - . : = , so that a long name or path wraps there when drawn.
    static QString breakable(const QString& text);
    // The text a field's value copies as: its full text (a digest: the digest alone, without the check).
    static QString copyText(const QTreeWidgetItem* item);
    // Every section and field of the run, "field: value" one a line under each section's title, then the notes.
    QString detailsText() const;
    // Copy the current value (or the selected rows) / the whole run's details to the clipboard.
    void copySelection();
    void copyAll();
    QAction* copyAction() const { return m_copy; }
    QAction* copyAllAction() const { return m_copyAll; }

    // The document's JSON with two-space indents, keys in their original order; the raw text if it is not JSON.
    static QString prettyJson(const std::string& raw);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void addRunFields(const Run& r);
    void addFigureFields(const Run& r);
    void addDigestFields(const Run& r);
    void addProtocolAndEnvironmentFields(const Run& r);
    void fitFieldColumn();

    RunPtr m_run;
    QLabel* m_header;
    QLabel* m_comparability;
    QTabWidget* m_tabs;
    QTreeWidget* m_fields;
    QPlainTextEdit* m_json;
    QToolButton* m_copyAllButton;
    QAction* m_copy;
    QAction* m_copyAll;
};

} // namespace kix
