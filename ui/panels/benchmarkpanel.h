// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/diagnostic.h"
#include "model/run.h"

#include <QDockWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace kix {

class BenchmarkRunner;
class MainWindow;
struct BenchmarkResult;
struct BenchmarkSpec;

// The Benchmark panel: passes, shape, dtypes, a channels sweep, device, implementation and timing; Run, progress
// with the current step, Cancel. Each finished run is written to the results folder and handed on (runsReady) so
// that it appears in the run table beside the loaded ones.
class BenchmarkPanel : public QDockWidget
{
    Q_OBJECT
public:
    explicit BenchmarkPanel(BenchmarkRunner* runner, QWidget* parent = nullptr);

    // The specs the form describes, or an empty list and *error.
    QVector<BenchmarkSpec> specs(QString* error) const;
    QString resultsFolder() const;
    void setResultsFolder(const QString& folder);

    // The form's widgets, for tests and keyboard users alike.
    QLineEdit* shapeEdit() const { return m_shape; }
    QLineEdit* sweepEdit() const { return m_sweep; }
    QSpinBox* channelsPerGroupBox() const { return m_channelsPerGroup; }
    QCheckBox* passBox(int pass) const { return m_passes[pass]; }
    QCheckBox* dtypeBox(int dtype) const { return m_dtypes[dtype]; }
    QDoubleSpinBox* warmupBox() const { return m_warmup; }
    QDoubleSpinBox* repBox() const { return m_rep; }
    QComboBox* deviceBox() const { return m_device; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QLabel* statusLabel() const { return m_status; }
    QLabel* cudaNote() const { return m_cudaNote; } // null when a CUDA device is listed

public slots:
    void start();
    void cancel();

signals:
    void runsReady(const kix::RunList& runs);
    // What the model said about a finished run's document: the errors of one it refused, and warnings.
    void issuesFound(const kix::Diagnostics& diagnostics);

private:
    void addWorkloadRows(QWidget* body, QFormLayout* form);
    void addDeviceRows(QWidget* body, QFormLayout* form);
    void addTimingRows(QWidget* body, QFormLayout* form);
    void onProgress(int job, int index, int total, double fraction, const QString& label);
    void onResult(int job, const BenchmarkResult& result);
    void onFinished(int job, bool cancelled);
    void setRunning(bool running);
    void refreshImplementations();

    BenchmarkRunner* m_runner;
    int m_job = 0;
    int m_done = 0;
    int m_failures = 0;
    int m_refused = 0;
    QCheckBox* m_passes[3] = {};
    QCheckBox* m_dtypes[3] = {};
    QLineEdit* m_shape = nullptr;
    QLineEdit* m_sweep = nullptr;
    QSpinBox* m_channelsPerGroup = nullptr;
    QComboBox* m_device = nullptr;
    QComboBox* m_implementation = nullptr;
    QDoubleSpinBox* m_warmup = nullptr;
    QDoubleSpinBox* m_rep = nullptr;
    QLineEdit* m_folder = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_cudaNote = nullptr;
};

} // namespace kix
