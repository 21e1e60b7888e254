// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/compare/rundiff.h"
#include "model/jobs/jobtracker.h"

#include <QWidget>

#include <optional>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
class QStackedWidget;
class QTableView;
class QToolButton;
QT_END_NAMESPACE

namespace kix {

class RunDiffModel;

// The chart panel's Compare view: 2 to 8 runs (the run table's selection) field by field, as `kix diff` compares
// them (model/compare/rundiff.h): one column per run, rows grouped by document, material differences marked in
// words and colour, equal fields folded unless "Show equal fields" is ticked, and the comparison copied or saved as
// Markdown, CSV or JSON with the writers `kix diff` uses. Other counts of runs get a line that says what to do. The
// documents are read back off the GUI thread (a catalog's run is read from its compressed file); a newer set of
// runs supersedes one being read.
class CompareView : public QWidget
{
    Q_OBJECT
public:
    enum class Format { Markdown, Csv, Json };

    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;

    void setRuns(const RunList& runs);
    bool isPending() const { return m_diffs.running() > 0; }
    // Why nothing is compared ("12 runs in scope: ..."); empty while a comparison shows.
    QString message() const;
    QString verdictText() const;
    RunDiffModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QCheckBox* showEqualBox() const { return m_showEqual; }
    QToolButton* copyButton() const { return m_copy; }

    // The comparison as `kix diff` writes it; Markdown folds equal fields as the view does.
    QByteArray exportText(Format format) const;
    static std::optional<Format> formatForPath(const QString& path); // by suffix: .md, .csv, .json
    bool exportTo(const QString& path, QString* error) const;

    void copy(Format format); // to the clipboard
    void exportDialog(); // asks for a file: its suffix (or the filter chosen) picks the format

signals:
    void filled(); // a comparison (or the reason there is none) is shown
    void statusMessage(const QString& text);

private:
    void showDiff(RunDiff diff);
    void fitColumns();

    RunList m_runs;
    QString m_message;
    QLabel* m_verdict;
    QCheckBox* m_showEqual;
    QToolButton* m_copy;
    QLabel* m_notes;
    QLabel* m_empty;
    QStackedWidget* m_stack;
    QTableView* m_table;
    RunDiffModel* m_model;
    JobTracker m_diffs { this }; // the documents read back; a newer set of runs drops the set being read
};

} // namespace kix
