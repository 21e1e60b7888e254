// SPDX-License-Identifier: Apache-2.0
#pragma once
// One kind of background result for one owner (a panel's chart, a model's sort, the filter's row mapping): every
// start supersedes the jobs started before it. A superseded job sees its CancelToken cancelled and may stop early;
// its result is never delivered, only dropped. Results are delivered on the owner's thread, in no other order than
// "the newest only". The pattern of hotspot's JobTracker: a generation number and a drop of stale results.
//
//     JobTracker m_sort { this };
//     m_sort.run(workerPool(), [pairs](const CancelToken& cancel) { return sortPairs(pairs, cancel); },
//                [this](SortResult&& result) { apply(std::move(result)); });

#include "model/jobs/canceltoken.h"

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent>

#include <atomic>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

QT_BEGIN_NAMESPACE
class QThreadPool;
QT_END_NAMESPACE

namespace kix {

class JobTracker
{
public:
    // Results are delivered on `context`'s thread while it lives; its children hold the jobs' watchers. The tracker
    // is a member of `context` (or of an object it outlives).
    explicit JobTracker(QObject* context);
    ~JobTracker(); // cancels every job; a job still running ends on its own and its result is dropped
    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;

    // A new generation: every token handed out before reads cancelled. For work started by hand (a synchronous
    // build, a job with its own delivery); run() calls it.
    CancelToken start();
    // Supersedes every job without starting one (the input changed; nothing to compute yet).
    void cancel();
    bool isCurrent(const CancelToken& token) const;
    // Jobs started by run() whose watcher has not yet reported (delivered or dropped).
    int running() const { return int(m_watchers.size()); }
    // Blocks until every job started by run() has ended on its thread (for an owner whose jobs read what it frees).
    void waitForDone();

    // Runs work(token) on `pool` and hands its result to deliver(Result&&) on the context's thread when the job is
    // still the newest; a stale result goes to drop(Result&&) (default: destroyed there). Returns the job's token.
    template<typename Work, typename Deliver, typename Drop = std::nullptr_t>
    CancelToken run(QThreadPool* pool, Work work, Deliver deliver, Drop drop = nullptr);

private:
    void finished(QFutureWatcherBase* watcher) { m_watchers.removeOne(watcher); }

    QObject* m_context;
    std::shared_ptr<std::atomic<quint64>> m_latest;
    // Of run()'s jobs not yet reported, for running() and waitForDone(). A watcher leaves before its result is taken:
    // a future whose result was taken never reads finished again, and waiting for it would never return.
    QList<QFutureWatcherBase*> m_watchers;
};

template<typename Work, typename Deliver, typename Drop>
CancelToken JobTracker::run(QThreadPool* pool, Work work, Deliver deliver, Drop drop)
{
    using Result = std::invoke_result_t<Work&, const CancelToken&>;
    const CancelToken token = start();
    auto* watcher = new QFutureWatcher<Result>(m_context);
    m_watchers.append(watcher);
    QObject::connect(watcher, &QFutureWatcherBase::finished, m_context,
        [this, watcher, token, deliver = std::move(deliver), drop = std::move(drop)]() mutable {
            finished(watcher);
            watcher->deleteLater();
            QFuture<Result> future = watcher->future();
            const bool current = isCurrent(token);
            if constexpr (std::is_void_v<Result>) {
                if (current)
                    deliver();
            } else {
                if (!future.isValid() || !future.isResultReadyAt(0))
                    return; // never ran: its pool was cleared
                Result result = future.takeResult(); // the watcher keeps no copy
                if (current)
                    deliver(std::move(result));
                else if constexpr (!std::is_same_v<Drop, std::nullptr_t>)
                    drop(std::move(result));
            }
        });
    watcher->setFuture(QtConcurrent::run(pool, [token, work = std::move(work)]() mutable { return work(token); }));
    return token;
}

} // namespace kix
