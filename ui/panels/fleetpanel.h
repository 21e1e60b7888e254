// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDockWidget>

#include <functional>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class QTimer;
QT_END_NAMESPACE

namespace kix {

class BenchmarkPanel;
class FleetJobModel;
class FolderFollower;

namespace fleet {
struct JobStatus;
}

// The Fleet panel: the jobs submitted from this account (kix fleet submit or this panel), their task states
// refreshed off the GUI thread (every 10 s while any task is pending or running), Cancel, Follow (the job's
// results folder), and Submit: the Benchmark panel's current request as one array job per target.
class FleetPanel : public QDockWidget
{
    Q_OBJECT
public:
    // Follows a results folder in the window (folderfollower.h's followFolder); false with the reason on failure.
    using FollowFolder = std::function<bool(const QString& folder, QString* error)>;

    FleetPanel(BenchmarkPanel* benchmark, FolderFollower* follower, FollowFolder follow, QWidget* parent = nullptr);

    FleetJobModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QLineEdit* targetsEdit() const { return m_targets; }
    QLineEdit* resultsEdit() const { return m_results; }
    QLineEdit* timeEdit() const { return m_time; }
    QLineEdit* partitionEdit() const { return m_partition; }
    QLineEdit* kixEdit() const { return m_kix; }
    QSpinBox* chunkBox() const { return m_chunk; }
    QPushButton* submitButton() const { return m_submit; }
    QLabel* statusLabel() const { return m_status; }

public slots:
    void refresh(); // asks squeue for every known job, off the GUI thread
    void submit(); // the Benchmark panel's request, off the GUI thread
    void cancelSelected();
    void followSelected();

signals:
    void refreshed();
    void submitted(const QStringList& jobIds, const QString& error);

private:
    const fleet::JobStatus* selected() const;

    BenchmarkPanel* m_benchmark;
    FolderFollower* m_follower;
    FollowFolder m_follow;
    FleetJobModel* m_model;
    QTableView* m_view;
    QLineEdit* m_targets;
    QLineEdit* m_results;
    QLineEdit* m_time;
    QLineEdit* m_partition;
    QLineEdit* m_kix;
    QSpinBox* m_chunk;
    QPushButton* m_submit;
    QLabel* m_status;
    QTimer* m_timer;
    bool m_refreshing = false;
};

} // namespace kix
