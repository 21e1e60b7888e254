// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/compare/resolve.h"

#include <QWidget>

#include <functional>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QPushButton;
class QStringListModel;
class QTableView;
QT_END_NAMESPACE

namespace kix {

class ResolveModel;

// "My workload": an operation, axis values (k=v), a dtype and a GPU; Resolve answers them from the runs the table
// shows (resolveWorkload: the exact cases ranked as their cohort, else the nearest measured ones with every field
// in which they differ). The operation field completes the loaded runs' operation names. Double-clicking a row asks
// for its runs to be selected (runsActivated).
class WorkloadPanel : public QWidget
{
    Q_OBJECT
public:
    // `runs` gives the runs to resolve among when Resolve is pressed (the window: the runs its table shows).
    explicit WorkloadPanel(std::function<RunList()> runs, QWidget* parent = nullptr);
    ~WorkloadPanel() override;

    // The operation names to complete (kernel names, titles, aliases of the loaded runs).
    void setOperationNames(const RunList& runs);
    // Fills the fields from `request` (the axes as "k=v k=v").
    void setRequest(const ResolveRequest& request);
    // The fields as a request; false and `error` when the axes field is not k=v pairs.
    bool request(ResolveRequest* out, QString* error) const;
    // Resolves the fields' request (what the Resolve button and Enter do).
    void resolve();

    QLineEdit* operationEdit() const { return m_operation; }
    QLineEdit* axesEdit() const { return m_axes; }
    QLineEdit* dtypeEdit() const { return m_dtype; }
    QLineEdit* gpuEdit() const { return m_gpu; }
    QTableView* view() const { return m_view; }
    const ResolveModel* model() const { return m_model; }
    QString summary() const;
    QStringList completions() const;
    void activateRow(int row);

signals:
    void runsActivated(const kix::RunList& runs, const QString& label);

private:
    std::function<RunList()> m_runs;
    QLineEdit* m_operation = nullptr;
    QLineEdit* m_axes = nullptr;
    QLineEdit* m_dtype = nullptr;
    QLineEdit* m_gpu = nullptr;
    QPushButton* m_resolve = nullptr;
    QLabel* m_summary = nullptr;
    QTableView* m_view = nullptr;
    ResolveModel* m_model = nullptr;
    QStringListModel* m_names = nullptr;
};

} // namespace kix
