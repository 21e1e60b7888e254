// SPDX-License-Identifier: Apache-2.0
#pragma once
// Every thread pool kix runs its work on, in one place: what runs on each, and why it cannot share another.
//
// Two rules decide how many there are. A task on pool P never blocks waiting for other tasks on P: once every
// thread of P is such a task, the tasks they wait for queue behind them for ever (two big files on two cores did).
// And work that answers a keystroke never queues behind work that takes seconds.
//
// None of them is QThreadPool::globalInstance(): Qt's raster paint engine (Qt 6.4) splits a large fill across the
// global pool's threads and the GUI thread waits for them, so a job of seconds there (counting facets over a
// million runs) holds up every repaint of the window until it ends: a stall of hundreds of milliseconds on the GUI
// thread that its own CPU time does not show. The global pool runs only the benchmark runner's one job (see
// longJobPool()) and Qt's own work.
//
// Besides these, each RunLoader (model/read/runloader.h) owns a pool of one thread: its loads run one at a time,
// and its destructor waits for every load it started (they report to it). A load waits for fileBatchPool().

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QThreadPool;
QT_END_NAMESPACE

namespace kix {

// The window's background jobs that take from milliseconds to seconds: sorting the pairs' table, the Workload
// column's keys, the history of the regressions panel, the compare view's diff, the folder follower's loads,
// freeing large values (ui/disposal.h), the parts of a list table. As many threads as QThread::idealThreadCount(),
// at least two (a long job never starves a short one of its kind on a one-core machine). A job here may wait for
// fileBatchPool() (a load) but never for another job here: listTable() waits for its parts here, so it is called
// from a thread of no pool.
QThreadPool* workerPool();

// Jobs that hold a thread for long without keeping a core busy: the cluster's tools (sbatch, squeue, scancel).
// Four threads. Kept off workerPool(), so a slow cluster never takes a thread the other views wait for. (The
// benchmark runner's one job stays on Qt's global pool: on this pool ThreadSanitizer reported the queued calls it
// makes to the GUI thread, a handoff through Qt's own event-queue mutex that it cannot see.)
QThreadPool* longJobPool();

// The chart panel's builds (ui/panels/chartpanelbuild.cpp), in two threads: a long build (Rank over a million
// runs) never holds up the filter's or the other views' jobs, and a newer build need not wait for an older one to
// end. The builds' results are freed here too.
QThreadPool* chartThreads();

// The filter's row builds (model/filter/runfilterproxy.cpp), the filter index they use and the old rows, freed:
// what a keystroke's rows wait for, so nothing that takes seconds for another view runs here. A row build waits
// for its chunks on filterChunkPool().
QThreadPool* rowJobPool();

// The chunks of one row build (model/filter/rowmapping.cpp). Runs nothing that waits: its callers, the row builds,
// wait for it. Not shared with parsePool(): a keystroke's chunks would queue behind a big file's windows.
QThreadPool* filterChunkPool();

// The facet counts (ui/models/facetmodel.cpp), one job at a time per model, seconds over a million runs: not on
// rowJobPool(), where a count would hold up the next keystroke's rows.
QThreadPool* facetJobPool();

// The files of a folder, read in batches (model/read/runloader.cpp); the caller reads batches too while it waits,
// from a RunLoader's thread, a workerPool() job or the command line's main thread. A batch waits for its big files'
// pieces on parsePool().
QThreadPool* fileBatchPool();

// The pieces of one big file being read: the chunks of a JSON Lines file read whole (model/read/documentlines.cpp)
// and the windows of one streamed (model/read/jsonlstream.cpp, jsonlmapped.cpp). Runs nothing that waits: its
// callers, a fileBatchPool() batch or the thread that reads one file, wait for it.
QThreadPool* parsePool();

} // namespace kix
