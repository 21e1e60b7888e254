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

} // namespace

QThreadPool* workerPool()
{
    return pool();
}

} // namespace kix
