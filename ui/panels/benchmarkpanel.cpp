// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/benchmarkpanel.h"

#include "engine/benchmarkrequest.h"
#include "engine/benchmarkrunner.h"
#include "engine/benchmarkspec.h"
#include "engine/runbuilder.h"
#include "model/read/documentparser.h"
#include "ui/mainwindow.h"
#include "ui/models/diagnosticsmodel.h"
#include "ui/runsession.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

namespace kix {

namespace {

const char* const kFolderKey = "benchmark/resultsFolder";

QString defaultResultsFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/runs");
}

bool parseSizes(const QString& text, QVector<qint64>& out)
{
    out.clear();
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qint64 v = part.trimmed().toLongLong(&ok);
        if (!ok || v <= 0)
            return false;
        out.append(v);
    }
    return true;
}

} // namespace

BenchmarkPanel::BenchmarkPanel(BenchmarkRunner* runner, QWidget* parent)
    : QDockWidget(QStringLiteral("Benchmark"), parent)
    , m_runner(runner)
{
    setObjectName(QStringLiteral("benchmarkPanel"));
    auto* body = new QWidget(this);
    auto* form = new QFormLayout;
    // A side panel is narrow (170 px at 1024): every field goes under its label rather than past the panel's edge.
    form->setRowWrapPolicy(QFormLayout::WrapAllRows);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    addWorkloadRows(body, form);
    addDeviceRows(body, form);
    addTimingRows(body, form);

    auto* buttons = new QHBoxLayout;
    m_run = new QPushButton(QStringLiteral("Run"), body);
    m_cancel = new QPushButton(QStringLiteral("Cancel"), body);
    m_cancel->setEnabled(false);
    for (QPushButton* button : { m_run, m_cancel })
        button->setMinimumWidth(button->fontMetrics().horizontalAdvance(button->text()) + 24); // not the style's 80
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    m_progress = new QProgressBar(body);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_status = new QLabel(QStringLiteral("Ready."), body);
    m_status->setWordWrap(true);

    auto* layout = new QVBoxLayout(body);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addStretch();
    setWidget(body);

    connect(m_run, &QPushButton::clicked, this, &BenchmarkPanel::start);
    connect(m_cancel, &QPushButton::clicked, this, &BenchmarkPanel::cancel);
    connect(m_runner, &BenchmarkRunner::progress, this, &BenchmarkPanel::onProgress);
    connect(m_runner, &BenchmarkRunner::resultReady, this, &BenchmarkPanel::onResult);
    connect(m_runner, &BenchmarkRunner::failed, this, [this](int job, const QString& message) {
        if (job == m_job) {
            ++m_failures;
            m_status->setText(message);
        }
    });
    connect(m_runner, &BenchmarkRunner::finished, this, &BenchmarkPanel::onFinished);
}

// The passes, the shape, the sweep and the dtypes to run.
void BenchmarkPanel::addWorkloadRows(QWidget* body, QFormLayout* form)
{
    // One check box a row: three side by side need more than a side panel has at 1024 px.
    auto* passes = new QGridLayout;
    const QStringList passNames = { QStringLiteral("forward"), QStringLiteral("backward"), QStringLiteral("full") };
    for (int i = 0; i < 3; ++i) {
        m_passes[i] = new QCheckBox(passNames[i], body);
        m_passes[i]->setChecked(true);
        passes->addWidget(m_passes[i], i, 0);
    }
    form->addRow(QStringLiteral("Passes"), passes);

    m_shape = new QLineEdit(QStringLiteral("128,2048,512"), body);
    m_shape->setToolTip(QStringLiteral("M,C,H: batch, channels, elements per channel"));
    form->addRow(QStringLiteral("Shape M,C,H"), m_shape);
    m_channelsPerGroup = new QSpinBox(body);
    m_channelsPerGroup->setRange(1, 1 << 20);
    m_channelsPerGroup->setValue(4);
    form->addRow(QStringLiteral("Channels per group"), m_channelsPerGroup);
    m_sweep = new QLineEdit(body);
    m_sweep->setPlaceholderText(QStringLiteral("e.g. 32,64,...,2048 (Liger's channel sweep)"));
    m_sweep->setToolTip(QStringLiteral(
        "The sweep grammar of kix bench --sweep: channel values (32,64,128 or 32,64,...,2048), or KEY=VALUES with "
        "KEY batch, channels, hidden or channels_per_group; several separated by spaces sweep their cross "
        "product. Empty runs the shape only."));
    form->addRow(QStringLiteral("Sweep"), m_sweep);

    auto* dtypes = new QGridLayout;
    const QStringList dtypeNames = { QStringLiteral("fp32"), QStringLiteral("bf16"), QStringLiteral("fp16") };
    for (int i = 0; i < 3; ++i) {
        m_dtypes[i] = new QCheckBox(dtypeNames[i], body);
        m_dtypes[i]->setChecked(i == 0);
        dtypes->addWidget(m_dtypes[i], i, 0);
    }
    form->addRow(QStringLiteral("Dtypes"), dtypes);
}

// The device (with why there is no CUDA device, if none) and the implementations it offers.
void BenchmarkPanel::addDeviceRows(QWidget* body, QFormLayout* form)
{
    m_device = new QComboBox(body);
    m_device->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon); // a long CPU name elides
    m_device->setMinimumContentsLength(8);
    const QVector<DeviceInfo> devices = m_runner->devices();
    bool hasCuda = false;
    for (const DeviceInfo& d : devices) {
        m_device->addItem(QStringLiteral("%1 · %2").arg(d.id, d.name), d.id);
        hasCuda = hasCuda || d.backend == QLatin1String("cuda");
    }
    form->addRow(QStringLiteral("Device"), m_device);
    if (!hasCuda) {
        // The CUDA device list is empty: say why (the CUDA error, or a build without the CUDA backend).
        m_cudaNote = new QLabel(QStringLiteral("No CUDA device: %1. The CPU runs instead.")
                                    .arg(m_runner->deviceProblem(QStringLiteral("cuda"))),
            body);
        m_cudaNote->setWordWrap(true);
        form->addRow(QString(), m_cudaNote);
    }
    m_implementation = new QComboBox(body);
    m_implementation->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_implementation->setMinimumContentsLength(8);
    form->addRow(QStringLiteral("Implementation"), m_implementation);
    connect(m_device, &QComboBox::currentIndexChanged, this, &BenchmarkPanel::refreshImplementations);
    refreshImplementations();
}

// The warm-up and repetition budgets, and the folder the results go to.
void BenchmarkPanel::addTimingRows(QWidget* body, QFormLayout* form)
{
    m_warmup = new QDoubleSpinBox(body);
    m_warmup->setRange(0, 60000);
    m_warmup->setSuffix(QStringLiteral(" ms"));
    m_warmup->setValue(25);
    form->addRow(QStringLiteral("Warm-up"), m_warmup);
    m_rep = new QDoubleSpinBox(body);
    m_rep->setRange(0.1, 600000);
    m_rep->setSuffix(QStringLiteral(" ms"));
    m_rep->setValue(100);
    m_rep->setToolTip(QStringLiteral("Time budget for the timed repetitions (Liger used 500 ms)"));
    form->addRow(QStringLiteral("Repetitions"), m_rep);

    auto* folderRow = new QHBoxLayout;
    m_folder = new QLineEdit(QSettings().value(QLatin1String(kFolderKey), defaultResultsFolder()).toString(), body);
    auto* browse = new QToolButton(body); // a push button is 80 px wide for one character
    browse->setText(QStringLiteral("…"));
    browse->setToolTip(QStringLiteral("Choose the results folder"));
    connect(browse, &QToolButton::clicked, this, [this]() {
        const QString dir = QFileDialog::getExistingDirectory(this, QStringLiteral("Results folder"), m_folder->text());
        if (!dir.isEmpty())
            setResultsFolder(dir);
    });
    folderRow->addWidget(m_folder);
    folderRow->addWidget(browse);
    form->addRow(QStringLiteral("Results folder"), folderRow);
}

void BenchmarkPanel::refreshImplementations()
{
    m_implementation->clear();
    m_implementation->addItem(QStringLiteral("(default)"), QString());
    for (const QString& name : m_runner->implementations(m_device->currentData().toString()))
        m_implementation->addItem(name, name);
}

QString BenchmarkPanel::resultsFolder() const
{
    return m_folder->text();
}

void BenchmarkPanel::setResultsFolder(const QString& folder)
{
    m_folder->setText(folder);
    QSettings().setValue(QLatin1String(kFolderKey), folder);
}

QVector<BenchmarkSpec> BenchmarkPanel::specs(QString* error) const
{
    QVector<qint64> shape;
    if (!parseSizes(m_shape->text(), shape) || shape.size() != 3) {
        *error = QStringLiteral("The shape must be three positive numbers M,C,H (e.g. 128,2048,512).");
        return {};
    }
    BenchmarkRequest request;
    request.base.batch = shape[0];
    request.base.channels = shape[1];
    request.base.hidden = shape[2];
    request.base.channelsPerGroup = m_channelsPerGroup->value();
    request.base.device = m_device->currentData().toString();
    request.base.implementation = m_implementation->currentData().toString();
    request.base.timing.warmupMs = m_warmup->value();
    request.base.timing.repMs = m_rep->value();
    // The grammar of `kix bench --sweep`; bare values sweep the channels.
    for (const QString& term : m_sweep->text().split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        SweepAxis axis;
        QString message;
        const bool ok = term.contains(QLatin1Char('='))
            ? parseSweepAxis(term, axis, message)
            : parseSweepAxis(QStringLiteral("channels=") + term, axis, message);
        if (!ok) {
            *error = QStringLiteral("Sweep: %1.").arg(message);
            return {};
        }
        request.sweeps.append(axis);
    }
    for (int p = 0; p < 3; ++p)
        if (m_passes[p]->isChecked())
            request.passes.append(static_cast<Pass>(p));
    for (int t = 0; t < 3; ++t)
        if (m_dtypes[t]->isChecked())
            request.dtypes.append(static_cast<DType>(t));
    if (request.passes.isEmpty() || request.dtypes.isEmpty()) {
        *error = QStringLiteral("Choose at least one pass and one dtype.");
        return {};
    }
    return expandRequest(request);
}

void BenchmarkPanel::start()
{
    QString error;
    const QVector<BenchmarkSpec> list = specs(&error);
    if (list.isEmpty()) {
        m_status->setText(error);
        return;
    }
    if (!QDir().mkpath(resultsFolder())) {
        m_status->setText(QStringLiteral("Cannot create the results folder %1.").arg(resultsFolder()));
        return;
    }
    m_done = 0;
    m_failures = 0;
    m_refused = 0;
    m_job = m_runner->start(list, resultsFolder());
    if (m_job == 0) {
        m_status->setText(QStringLiteral("A benchmark is already running."));
        return;
    }
    setRunning(true);
    m_status->setText(QStringLiteral("Starting %1 benchmark(s)…").arg(list.size()));
}

void BenchmarkPanel::cancel()
{
    m_runner->cancel();
    m_status->setText(QStringLiteral("Cancelling…"));
}

void BenchmarkPanel::onProgress(int job, int index, int total, double fraction, const QString& label)
{
    if (job != m_job)
        return;
    m_progress->setValue(static_cast<int>(1000.0 * (index + fraction) / std::max(total, 1)));
    m_status->setText(QStringLiteral("%1 of %2: %3").arg(index + 1).arg(total).arg(label));
}

void BenchmarkPanel::onResult(int job, const BenchmarkResult& result)
{
    if (job != m_job)
        return;
    if (!result.hasDocument()) {
        if (result.status == BenchmarkResult::Status::Error) {
            ++m_failures;
            m_status->setText(result.message);
        }
        return;
    }
    ++m_done;
    m_failures += result.status == BenchmarkResult::Status::Failed ? 1 : 0;
    Diagnostics diagnostics;
    const QString file = result.filePath.isEmpty() ? QStringLiteral("(not saved)") : result.filePath;
    const RunPtr run = runFromDocument(
        result.document, file, QString(), diagnostics, RunBuilder::roundedSamples(result.timing.samplesNs));
    if (!diagnostics.isEmpty())
        emit issuesFound(diagnostics);
    if (run) {
        emit runsReady({ run });
    } else {
        // The engine wrote a document the model refuses: a bug to see, never a run that silently goes missing.
        ++m_refused;
        m_status->setText(QStringLiteral("The run document of %1 was refused (see Issues).").arg(file));
    }
}

void BenchmarkPanel::onFinished(int job, bool cancelled)
{
    if (job != m_job)
        return;
    setRunning(false);
    m_progress->setValue(cancelled ? 0 : 1000);
    if (cancelled)
        m_status->setText(
            QStringLiteral("Cancelled; %1 run(s) finished before, nothing partial was written.").arg(m_done));
    else
        m_status->setText(
            QStringLiteral("Done: %1 run(s) in %2%3%4.")
                .arg(m_done)
                .arg(resultsFolder())
                .arg(m_failures ? QStringLiteral(", %1 failed").arg(m_failures) : QString())
                .arg(m_refused ? QStringLiteral(", %1 refused by the model (see Issues)").arg(m_refused) : QString()));
}

void BenchmarkPanel::setRunning(bool running)
{
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
}

} // namespace kix
