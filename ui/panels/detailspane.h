// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/run.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTreeWidget;
QT_END_NAMESPACE

namespace kix {

// Everything about the current run: every field, the four digests, the protocol's comparability notes (always in
// view above the tabs) and the document's raw JSON, pretty-printed in its original key order.
class DetailsPane : public QWidget
{
    Q_OBJECT
public:
    explicit DetailsPane(QWidget* parent = nullptr);

    void setRun(const RunPtr& run);
    RunPtr run() const { return m_run; }

    QTreeWidget* fields() const { return m_fields; }
    QPlainTextEdit* rawJson() const { return m_json; }
    QString comparabilityText() const;

    // The document's JSON with two-space indents, keys in their original order; the raw text if it is not JSON.
    static QString prettyJson(const std::string& raw);

private:
    RunPtr m_run;
    QLabel* m_header;
    QLabel* m_comparability;
    QTabWidget* m_tabs;
    QTreeWidget* m_fields;
    QPlainTextEdit* m_json;
};

} // namespace kix
