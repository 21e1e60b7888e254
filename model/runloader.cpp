#include "model/runloader.h"

#include "model/documentparser.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSet>
#include <QtConcurrent>

#include <algorithm>
#include <mutex>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace kix {

QStringList expandPaths(const QStringList& paths, Diagnostics* diagnostics)
{
    static const QStringList patterns
        = { QStringLiteral("*.json"), QStringLiteral("*.jsonl"), QStringLiteral("*.ndjson"), QStringLiteral("*.csv") };
    QStringList files;
    for (const QString& path : paths) {
        const QFileInfo info(path);
        if (info.isDir()) {
            QStringList found;
            // System: FIFOs, sockets and dangling links (a symlink loop) are listed too, so that reading names them
            QDirIterator it(path, patterns, QDir::Files | QDir::System, QDirIterator::Subdirectories);
            while (it.hasNext())
                found.append(it.next());
            std::sort(found.begin(), found.end());
            files += found;
        } else if (info.exists()) {
            files.append(path);
        } else if (diagnostics) {
            diagnostics->append(makeError(path, {}, QStringLiteral("no such file or folder")));
        }
    }
    return files;
}

RunList removeDuplicates(const RunList& runs, QSet<QByteArray>& seen, Diagnostics& diagnostics, int* duplicates)
{
    RunList out;
    out.reserve(runs.size());
    for (const RunPtr& run : runs) {
        const QByteArray key = run->identityHash();
        if (seen.contains(key)) {
            diagnostics.append(makeWarning(run->file, run->pointer,
                QStringLiteral("duplicate of a run already loaded (externalId %1, same "
                               "digests): kept once")
                    .arg(run->externalId)));
            if (duplicates)
                ++*duplicates;
            continue;
        }
        seen.insert(key);
        out.append(run);
    }
    return out;
}

namespace {

// glibc gives each worker thread its own heap, trims it whenever its top is free and grows it again for the
// next file: one mprotect system call per file loaded. Keeping freed memory for reuse avoids that churn (it does
// not raise the peak, which is set by the runs that are kept).
void tuneAllocator()
{
#ifdef __GLIBC__
    static std::once_flag once;
    std::call_once(once, []() {
        mallopt(M_TRIM_THRESHOLD, 128 << 20);
        mallopt(M_TOP_PAD, 16 << 20);
    });
#endif
}

} // namespace

LoadResult loadPaths(
    const QStringList& paths, const std::atomic<bool>* cancel, const std::function<void(int, int)>& progress)
{
    tuneAllocator();
    LoadResult result;
    const QStringList files = expandPaths(paths, &result.diagnostics);
    const int total = files.size();
    std::atomic<int> done { 0 };
    auto parseOne = [&](const QString& file) -> ParseResult {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return {};
        ParseResult parsed = parseFile(file);
        const int n = done.fetch_add(1, std::memory_order_relaxed) + 1;
        if (progress)
            progress(n, total);
        return parsed;
    };
    // Parsing is the cost: spread files over all cores, then merge in file order.
    // One file (a big .jsonl bundle, say) parses its own chunks in parallel: call it here, not from a pool thread.
    const QList<ParseResult> parsed = files.size() == 1
        ? QList<ParseResult> { parseOne(files.first()) }
        : QtConcurrent::blockingMapped<QList<ParseResult>>(files, parseOne);
    if (cancel && cancel->load()) {
        result.cancelled = true;
        return result;
    }
    QSet<QByteArray> seen;
    int runCount = 0;
    for (const ParseResult& p : parsed)
        runCount += p.runs.size();
    result.runs.reserve(runCount);
    seen.reserve(runCount);
    for (const ParseResult& p : parsed) {
        result.diagnostics += p.diagnostics;
        if (p.hasErrors())
            ++result.refusedFiles;
        result.runs += removeDuplicates(p.runs, seen, result.diagnostics, &result.duplicates);
    }
    result.files = total;
    return result;
}

RunLoader::RunLoader(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<kix::LoadResult>();
    m_jobs.setMaxThreadCount(1);
}

RunLoader::~RunLoader()
{
    cancel();
    m_future.waitForFinished();
}

int RunLoader::load(const QStringList& paths)
{
    cancel();
    const int job = m_nextJob++;
    m_currentJob = job;
    m_running = true;
    auto cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancelFlag;
    emit started(job, -1);

    m_future = QtConcurrent::run(&m_jobs, [this, job, paths, cancelFlag]() {
        QElapsedTimer sinceProgress;
        sinceProgress.start();
        std::atomic<qint64> lastEmit { -1000 };
        auto report = [&](int done, int total) {
            // throttled to ~20 updates a second; the last one always goes through
            const qint64 now = sinceProgress.elapsed();
            qint64 last = lastEmit.load();
            if (done != total && (now - last < 50 || !lastEmit.compare_exchange_strong(last, now)))
                return;
            QMetaObject::invokeMethod(
                this, [this, job, done, total]() { emit progress(job, done, total); }, Qt::QueuedConnection);
        };
        LoadResult result = loadPaths(paths, cancelFlag.get(), report);
        QMetaObject::invokeMethod(
            this,
            [this, job, result = std::move(result), cancelFlag]() {
                if (job != m_currentJob || cancelFlag->load())
                    return; // superseded or cancelled: drop it
                m_running = false;
                emit finished(job, result);
            },
            Qt::QueuedConnection);
    });
    return job;
}

void RunLoader::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
    if (m_running) {
        m_running = false;
        LoadResult cancelled;
        cancelled.cancelled = true;
        emit finished(m_currentJob, cancelled);
    }
}

} // namespace kix
