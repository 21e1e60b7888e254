// SPDX-License-Identifier: Apache-2.0
#include "model/jobs/pools.h"

#include <QThread>
#include <QThreadPool>

#include <algorithm>

namespace kix {

namespace {

// A pool named for debuggers and profilers, of `threads` threads.
struct NamedPool : QThreadPool
{
    NamedPool(const char* name, int threads)
    {
        setObjectName(QString::fromLatin1(name));
        setMaxThreadCount(threads);
    }
};

Q_GLOBAL_STATIC(NamedPool, workerThreads, "kix workers", std::max(2, QThread::idealThreadCount()))
Q_GLOBAL_STATIC(NamedPool, longJobThreads, "kix long jobs", 4) // the cluster's tools: they wait more than they compute
Q_GLOBAL_STATIC(NamedPool, chartBuildThreads, "kix charts", 2)
Q_GLOBAL_STATIC(NamedPool, rowJobThreads, "kix row jobs", QThread::idealThreadCount())
Q_GLOBAL_STATIC(NamedPool, filterChunkThreads, "kix filter chunks", QThread::idealThreadCount())
Q_GLOBAL_STATIC(NamedPool, facetJobThreads, "kix facet counts", QThread::idealThreadCount())
Q_GLOBAL_STATIC(NamedPool, fileBatchThreads, "kix file batches", QThread::idealThreadCount())
Q_GLOBAL_STATIC(NamedPool, filePieceThreads, "kix file pieces", QThread::idealThreadCount())

} // namespace

QThreadPool* workerPool()
{
    return workerThreads();
}

QThreadPool* longJobPool()
{
    return longJobThreads();
}

QThreadPool* chartThreads()
{
    return chartBuildThreads();
}

QThreadPool* rowJobPool()
{
    return rowJobThreads();
}

QThreadPool* filterChunkPool()
{
    return filterChunkThreads();
}

QThreadPool* facetJobPool()
{
    return facetJobThreads();
}

QThreadPool* fileBatchPool()
{
    return fileBatchThreads();
}

QThreadPool* parsePool()
{
    return filePieceThreads();
}

} // namespace kix
