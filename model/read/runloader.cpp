// SPDX-License-Identifier: Apache-2.0
#include "model/read/runloader.h"

#include "model/jobs/pools.h"
#include "model/read/documentparser.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QtConcurrent>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include <dirent.h>
#include <strings.h>
#include <sys/stat.h>

namespace kix {

namespace {

bool isRunFileName(const char* name)
{
    const char* dot = std::strrchr(name, '.');
    if (!dot)
        return false;
    for (const char* suffix : { ".json", ".jsonl", ".ndjson", ".csv", ".yaml", ".yml", ".zst" }) {
        if (strcasecmp(dot, suffix) == 0)
            return true;
    }
    return false;
}

// The run files under a folder, recursively; hidden entries and links to folders are skipped (as QDirIterator
// does by default), and no per-entry stat is needed when the file system reports entry types. Each folder's
// entries are visited sorted by name, a folder's name with its '/' after it: for ASCII names, that is the order
// of the whole paths, so the list comes out sorted (`ascii` turns false when a name is not: then the caller sorts).
void findRunFiles(const QByteArray& folder, QStringList& found, bool& ascii)
{
    DIR* dir = ::opendir(folder.constData());
    if (!dir)
        return;
    struct Entry
    {
        QByteArray key; // the name, and '/' after a folder's
        bool folder;
    };
    std::vector<Entry> entries;
    while (const dirent* entry = ::readdir(dir)) {
        if (entry->d_name[0] == '.')
            continue;
        unsigned char type = entry->d_type;
        if (type == DT_UNKNOWN || type == DT_LNK) {
            const QByteArray path = folder + '/' + entry->d_name;
            struct stat info
            {
            };
            if (::stat(path.constData(), &info) != 0)
                type = DT_UNKNOWN; // a dangling link or a symlink loop: listed below, so that reading names it
            else
                type = S_ISDIR(info.st_mode) ? (entry->d_type == DT_LNK ? DT_LNK : DT_DIR)
                                             : (S_ISREG(info.st_mode) ? DT_REG : DT_UNKNOWN);
        }
        if (type == DT_DIR)
            entries.push_back({ QByteArray(entry->d_name) + '/', true });
        else if (type != DT_LNK && isRunFileName(entry->d_name))
            entries.push_back({ QByteArray(entry->d_name), false }); // FIFOs, sockets and broken links too: reading
                                                                     // refuses them by name
    }
    ::closedir(dir);
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
    for (Entry& entry : entries) {
        for (const char c : entry.key)
            ascii = ascii && static_cast<unsigned char>(c) < 0x80;
        if (entry.folder) {
            entry.key.chop(1);
            findRunFiles(folder + '/' + entry.key, found, ascii);
        } else {
            found.append(QFile::decodeName(folder + '/' + entry.key));
        }
    }
}

} // namespace

QStringList expandPaths(const QStringList& paths, Diagnostics* diagnostics)
{
    QStringList files;
    for (const QString& path : paths) {
        const QFileInfo info(path);
        if (info.isDir() && path.startsWith(QLatin1Char(':'))) {
            // A folder of Qt resources (the runs compiled into kix, ":/runs"): opendir cannot see it.
            QStringList found;
            QDirIterator it(path, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString file = it.next();
                if (isRunFileName(QFile::encodeName(it.fileName()).constData()))
                    found.append(file);
            }
            std::sort(found.begin(), found.end());
            files += found;
        } else if (info.isDir()) {
            QStringList found;
            QByteArray folder = QFile::encodeName(path);
            while (folder.size() > 1 && folder.endsWith('/'))
                folder.chop(1);
            bool ascii = true;
            findRunFiles(folder, found, ascii);
            if (!ascii) // UTF-16 order, as QString sorts, is not the bytes' order for every name
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

namespace {

// The warning for a run that is the same as one kept before it.
Diagnostic duplicateWarning(const Run& run, const Run& kept)
{
    return makeWarning(run.file, run.pointer,
        QStringLiteral("the same run as %1%2 (an identical run resource%3): kept once")
            .arg(kept.file, kept.pointer.isEmpty() ? QString() : QStringLiteral(" at ") + kept.pointer,
                run.runDigest.isEmpty() ? QString() : QStringLiteral(", ") + run.runDigest.toString()));
}

// The runs kept so far by their identity (16 bytes, an MD5: its first 8 bytes are the hash), open addressing
// over plain pointers: the loader's one serial step, so no hash nodes and no shared_ptr copies per run.
class IdentitySet
{
public:
    explicit IdentitySet(qsizetype expected)
    {
        std::size_t size = 16;
        while (size < std::size_t(expected) * 2)
            size *= 2;
        m_slots.assign(size, Slot {});
    }

    // The run kept before with the same identity, or nullptr (and `run` is kept).
    const Run* insert(const Run* run, const RunIdentity& identity)
    {
        const std::uint64_t h = hashOf(identity);
        std::size_t mask = m_slots.size() - 1;
        for (std::size_t i = h & mask;; i = (i + 1) & mask) {
            Slot& slot = m_slots[i];
            if (!slot.run) {
                slot = { h, run, identity };
                if (++m_count * 2 > m_slots.size())
                    grow();
                return nullptr;
            }
            if (slot.hash == h && slot.identity == identity)
                return slot.run;
        }
    }

private:
    struct Slot
    {
        std::uint64_t hash = 0;
        const Run* run = nullptr;
        RunIdentity identity;
    };

    static std::uint64_t hashOf(const RunIdentity& identity)
    {
        std::uint64_t h = 0;
        std::memcpy(&h, identity.bytes.data(), 8);
        return h * 0x9E3779B97F4A7C15ull; // spread what the mask keeps
    }

    void grow()
    {
        std::vector<Slot> old(m_slots.size() * 2);
        old.swap(m_slots);
        const std::size_t mask = m_slots.size() - 1;
        for (Slot& slot : old) {
            if (!slot.run)
                continue;
            std::size_t i = slot.hash & mask;
            while (m_slots[i].run)
                i = (i + 1) & mask;
            m_slots[i] = std::move(slot);
        }
    }

    std::vector<Slot> m_slots;
    std::size_t m_count = 0;
};

} // namespace

RunList removeDuplicates(
    const RunList& runs, QHash<RunIdentity, const Run*>& seen, Diagnostics& diagnostics, int* duplicates)
{
    RunList out;
    out.reserve(runs.size());
    for (const RunPtr& run : runs) {
        const RunIdentity key = run->identityHash();
        if (const auto first = seen.constFind(key); first != seen.cend()) {
            diagnostics.append(duplicateWarning(*run, **first));
            if (duplicates)
                ++*duplicates;
            continue;
        }
        seen.insert(key, run.get());
        out.append(run);
    }
    return out;
}

LoadResult loadPaths(const QStringList& paths, const std::atomic<bool>* cancel,
    const std::function<void(int, int)>& progress, const FileProgress& fileProgress)
{
    LoadResult result;
    const QStringList files = expandPaths(paths, &result.diagnostics);
    const int total = files.size();
    std::atomic<int> done { 0 };
    // Files are parsed in batches (fewer tasks and result lists), spread over all cores, then merged in order.
    // One file (a big .jsonl bundle, say) parses its own chunks in parallel: call it here, not from a pool thread.
    struct Batch
    {
        int first;
        int count;
    };
    struct BatchResult
    {
        ParseResult parsed;
        int refused = 0;
    };
    const int batchSize = std::clamp(total / (8 * std::max(1, fileBatchPool()->maxThreadCount())), 1, 64);
    QVector<Batch> batches;
    for (int i = 0; i < total; i += batchSize)
        batches.append({ i, std::min(batchSize, total - i) });
    auto parseBatch = [&](const Batch& batch) -> BatchResult {
        BatchResult out;
        FolderHandle folder; // the batch's files are mostly of one folder (the list is sorted)
        for (int i = batch.first; i < batch.first + batch.count; ++i) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                return out;
            const qsizetype before = out.parsed.diagnostics.size();
            ParseLimits limits;
            limits.cancel = cancel;
            limits.folder = &folder;
            if (fileProgress)
                limits.fileProgress = [&, i](qint64 bytes, qint64 of) { fileProgress(files[i], bytes, of); };
            parseFileInto(files[i], limits, out.parsed);
            for (qsizetype d = before; d < out.parsed.diagnostics.size(); ++d) {
                if (out.parsed.diagnostics[d].isError()) {
                    ++out.refused;
                    break;
                }
            }
            const int n = done.fetch_add(1, std::memory_order_relaxed) + 1;
            if (progress)
                progress(n, total);
        }
        return out;
    };
    QList<BatchResult> parsed = batches.size() == 1
        ? QList<BatchResult> { parseBatch(batches.first()) }
        : QtConcurrent::blockingMapped<QList<BatchResult>>(fileBatchPool(), batches, parseBatch);
    if (cancel && cancel->load()) {
        result.cancelled = true;
        return result;
    }
    qsizetype runCount = 0;
    for (const BatchResult& p : parsed)
        runCount += p.parsed.runs.size();
    result.runs.reserve(runCount);
    IdentitySet seen(runCount);
    for (BatchResult& p : parsed) {
        result.diagnostics += p.parsed.diagnostics;
        result.refusedFiles += p.refused;
        for (RunPtr& run : p.parsed.runs) {
            if (const Run* kept = seen.insert(run.get(), run->identityHash())) {
                result.diagnostics.append(duplicateWarning(*run, *kept));
                ++result.duplicates;
                continue;
            }
            result.runs.append(std::move(run));
        }
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

    m_future = QtConcurrent::run(&m_jobs, [this, job, paths, cancelFlag, probe = m_probe]() {
        QElapsedTimer sinceProgress;
        sinceProgress.start();
        std::atomic<qint64> lastEmit { -1000 };
        auto report = [&](int done, int total) {
            if (probe)
                probe(done, total);
            // throttled to ~20 updates a second; the last one always goes through
            const qint64 now = sinceProgress.elapsed();
            qint64 last = lastEmit.load();
            if (done != total && (now - last < 50 || !lastEmit.compare_exchange_strong(last, now)))
                return;
            QMetaObject::invokeMethod(
                this, [this, job, done, total]() { emit progress(job, done, total); }, Qt::QueuedConnection);
        };
        std::atomic<qint64> lastFileEmit { -1000 };
        auto reportFile = [&](const QString& file, qint64 done, qint64 total) {
            // a streamed file (a compressed catalog export): ~10 updates a second; files on several threads at
            // once share the budget
            const qint64 now = sinceProgress.elapsed();
            qint64 last = lastFileEmit.load();
            if (done != total && (now - last < 100 || !lastFileEmit.compare_exchange_strong(last, now)))
                return;
            QMetaObject::invokeMethod(
                this, [this, job, file, done, total]() { emit fileProgress(job, file, done, total); },
                Qt::QueuedConnection);
        };
        LoadResult result = loadPaths(paths, cancelFlag.get(), report, reportFile);
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
