// SPDX-License-Identifier: Apache-2.0
#pragma once
// The threads kix's own background work runs on (filtering, facet counts, the Workload column's keys, freeing
// large values, history builds): never QThreadPool::globalInstance(). Qt's raster paint engine (Qt 6.4) splits a
// large fill across the global pool's threads and the GUI thread waits for them, so a job of seconds there
// (counting facets over a million runs) holds up every repaint of the window until it ends: a stall of hundreds
// of milliseconds on the GUI thread that its own CPU time does not show.

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QThreadPool;
QT_END_NAMESPACE

namespace kix {

// As many threads as QThread::idealThreadCount(), at least two (a long job never starves a short one of its
// kind on a one-core machine).
QThreadPool* workerPool();

// The threads for jobs that hold a thread for long without keeping a core busy: the cluster's tools (sbatch,
// squeue, scancel). Kept off workerPool(), so a slow cluster never takes a thread the filter or the facet counts
// wait for. (The benchmark runner's one job stays on Qt's global pool: on this pool ThreadSanitizer reported the
// queued calls it makes to the GUI thread, a handoff through Qt's own event-queue mutex that it cannot see.)
QThreadPool* longJobPool();

} // namespace kix
