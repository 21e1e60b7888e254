// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/fleetpanel.h"

#include "engine/benchmarkspec.h"
#include "engine/fleet/fleetsubmit.h"
#include "model/jobs/pools.h"
#include "ui/folderfollower.h"
#include "ui/models/fleetjobmodel.h"
#include "ui/panels/benchmarkpanel.h"

#include <QCoreApplication>
#include <QDir>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace kix {

using namespace kix::fleet;

FleetPanel::FleetPanel(BenchmarkPanel* benchmark, FolderFollower* follower, FollowFolder follow, QWidget* parent)
    : QDockWidget(QStringLiteral("Fleet"), parent)
    , m_benchmark(benchmark)
    , m_follower(follower)
    , m_follow(std::move(follow))
    , m_model(new FleetJobModel(this))
    , m_view(new QTableView)
    , m_targets(new QLineEdit)
    , m_results(new QLineEdit)
    , m_time(new QLineEdit)
    , m_partition(new QLineEdit)
    , m_kix(new QLineEdit(QCoreApplication::applicationFilePath()))
    , m_chunk(new QSpinBox)
    , m_submit(new QPushButton(QStringLiteral("Submit Benchmark Request")))
    , m_status(new QLabel)
    , m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("fleetPanel"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->verticalHeader()->hide();
    m_targets->setPlaceholderText(QStringLiteral("h100:1, h200:1 or partition=NAME (empty: the default)"));
    m_time->setPlaceholderText(QStringLiteral("the partition's default, e.g. 01:00:00"));
    m_partition->setPlaceholderText(QStringLiteral("the cluster's default"));
    if (m_benchmark)
        m_results->setText(m_benchmark->resultsFolder());
    m_chunk->setRange(1, 10000);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* refreshButton = new QPushButton(QStringLiteral("Refresh"));
    auto* cancelButton = new QPushButton(QStringLiteral("Cancel Job"));
    auto* followButton = new QPushButton(QStringLiteral("Follow Results"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(refreshButton);
    buttons->addWidget(cancelButton);
    buttons->addWidget(followButton);
    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("Targets"), m_targets);
    form->addRow(QStringLiteral("Results folder"), m_results);
    form->addRow(QStringLiteral("Time limit"), m_time);
    form->addRow(QStringLiteral("Partition"), m_partition);
    form->addRow(QStringLiteral("Cells per task"), m_chunk);
    form->addRow(QStringLiteral("kix on the nodes"), m_kix);
    auto* layout = new QVBoxLayout;
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);
    layout->addLayout(form);
    layout->addWidget(m_submit);
    layout->addWidget(m_status);
    auto* body = new QWidget;
    body->setLayout(layout);
    setWidget(body);

    connect(refreshButton, &QPushButton::clicked, this, &FleetPanel::refresh);
    connect(cancelButton, &QPushButton::clicked, this, &FleetPanel::cancelSelected);
    connect(followButton, &QPushButton::clicked, this, &FleetPanel::followSelected);
    connect(m_submit, &QPushButton::clicked, this, &FleetPanel::submit);
    m_timer->setInterval(10000);
    connect(m_timer, &QTimer::timeout, this, &FleetPanel::refresh);
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible)
            refresh();
    });
}

void FleetPanel::refresh()
{
    if (m_refreshing)
        return;
    m_refreshing = true;
    auto* watcher = new QFutureWatcher<QVector<JobStatus>>(this);
    connect(watcher, &QFutureWatcher<QVector<JobStatus>>::finished, this, [this, watcher] {
        const QVector<JobStatus> jobs = watcher->result();
        watcher->deleteLater();
        m_refreshing = false;
        const QString selectedJob = selected() ? selected()->record.jobId : QString();
        m_model->setJobs(jobs);
        for (int row = 0; row < jobs.size(); ++row)
            if (jobs[row].record.jobId == selectedJob)
                m_view->selectRow(row);
        // Jobs submitted from the command line appear too: keep looking while the panel is shown.
        if (isVisible())
            m_timer->start();
        else
            m_timer->stop();
        emit refreshed();
    });
    // Finished jobs keep their last status: squeue is asked only about the others.
    QHash<QString, JobStatus> finished;
    for (const JobStatus& j : m_model->jobs())
        if (j.finished())
            finished.insert(j.record.jobId + QLatin1Char('@') + j.record.resultsDir, j);
    watcher->setFuture(QtConcurrent::run(longJobPool(), [finished] {
        QVector<JobStatus> jobs;
        for (const JobRecord& r : knownJobs()) {
            const auto known = finished.constFind(r.jobId + QLatin1Char('@') + r.resultsDir);
            jobs << (known != finished.cend() ? known.value() : queryStatus(r));
        }
        return jobs;
    }));
}

void FleetPanel::submit()
{
    QString error;
    const QVector<BenchmarkSpec> specs = m_benchmark ? m_benchmark->specs(&error) : QVector<BenchmarkSpec>();
    QVector<Target> targets;
    for (const QString& t :
        m_targets->text().split(QRegularExpression(QStringLiteral("[\\s;]+|,\\s+")), Qt::SkipEmptyParts)) {
        Target target;
        if (error.isEmpty() && !parseTarget(t, target, &error))
            break;
        targets << target;
    }
    QVector<ArrayJob> jobs;
    if (error.isEmpty() && m_results->text().trimmed().isEmpty())
        error = QStringLiteral("choose a results folder every compute node can write");
    if (error.isEmpty())
        planJobs(cellsFromSpecs(specs), targets, m_chunk->value(), kDefaultMaxTasks, jobs, &error);
    if (!error.isEmpty()) {
        m_status->setText(QStringLiteral("Not submitted: ") + error);
        emit submitted({}, error);
        return;
    }
    SubmitOptions options;
    options.resultsDir = m_results->text().trimmed();
    options.kixBinary = m_kix->text().trimmed();
    options.time = m_time->text().trimmed();
    options.partition = m_partition->text().trimmed();
    m_submit->setEnabled(false);
    m_status->setText(QStringLiteral("Submitting %1 tasks…").arg(taskCount(jobs)));
    auto* watcher = new QFutureWatcher<SubmitResult>(this);
    connect(watcher, &QFutureWatcher<SubmitResult>::finished, this, [this, watcher] {
        const SubmitResult result = watcher->result();
        watcher->deleteLater();
        m_submit->setEnabled(true);
        QStringList ids;
        for (const JobRecord& r : result.submitted)
            ids << r.jobId;
        m_status->setText((ids.isEmpty() ? QString() : QStringLiteral("Submitted job %1. ").arg(ids.join(", ")))
            + (result.error.isEmpty() ? QString() : QStringLiteral("Failed: ") + result.error));
        if (!ids.isEmpty() && m_follower && m_follow
            && m_follower->folder() != QDir(result.submitted.first().resultsDir).absolutePath()) {
            QString ignored;
            m_follow(result.submitted.first().resultsDir, &ignored);
        }
        emit submitted(ids, result.error);
        refresh();
    });
    watcher->setFuture(QtConcurrent::run(longJobPool(), [jobs, options] { return submitJobs(jobs, options); }));
}

const JobStatus* FleetPanel::selected() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return rows.isEmpty() || rows.first().row() >= m_model->jobs().size() ? nullptr
                                                                          : &m_model->jobs()[rows.first().row()];
}

void FleetPanel::cancelSelected()
{
    const JobStatus* job = selected();
    if (!job)
        return;
    const QString id = job->record.jobId;
    auto* watcher = new QFutureWatcher<ToolResult>(this);
    connect(watcher, &QFutureWatcher<ToolResult>::finished, this, [this, watcher, id] {
        const ToolResult r = watcher->result();
        watcher->deleteLater();
        m_status->setText(r.ok() ? QStringLiteral("Cancelled job %1.").arg(id) : r.error);
        refresh();
    });
    watcher->setFuture(QtConcurrent::run(longJobPool(), [id] { return runTool(QStringLiteral("scancel"), { id }); }));
}

void FleetPanel::followSelected()
{
    const JobStatus* job = selected();
    QString error;
    if (job && m_follower && m_follow && !m_follow(job->record.resultsDir, &error))
        m_status->setText(error);
}

} // namespace kix
