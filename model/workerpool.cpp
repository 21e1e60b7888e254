// SPDX-License-Identifier: Apache-2.0
#include "model/workerpool.h"

#include <QThread>
#include <QThreadPool>

#include <algorithm>

namespace kix {

namespace {

struct WorkerPool : QThreadPool
{
    WorkerPool()
    {
        setObjectName(QStringLiteral("kix workers"));
        setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    }
};

Q_GLOBAL_STATIC(WorkerPool, pool)

struct LongJobPool : QThreadPool
{
    LongJobPool()
    {
        setObjectName(QStringLiteral("kix long jobs"));
        setMaxThreadCount(4); // the cluster's tools: they wait more than they compute
    }
};

Q_GLOBAL_STATIC(LongJobPool, longJobs)

} // namespace

QThreadPool* workerPool()
{
    return pool();
}

QThreadPool* longJobPool()
{
    return longJobs();
}

} // namespace kix
