// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>
#include <QVector>

#include <array>
#include <atomic>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kix {

// One key of a workload slug: "channels2048" -> {channels, "2048", 2048}.
struct WorkloadParam
{
    QString key;
    QString value;
    double number = std::numeric_limits<double>::quiet_NaN(); // NaN when the value is not numeric
};

// A measurement that is not the headline statistic set (bytes moved, GB/s, error, memory ...).
struct Measurement
{
    QString metric;
    QString statistic;
    QString unit;
    double value = 0;
};

// The file a run's text is read back from when it is not kept in memory (a streamed JSON Lines bundle, a file that
// is one document), with what identified it when it was read: a file changed since (another size, modification or
// change time, or inode) is not read back, so an export never writes bytes other than those loaded.
struct RawSource
{
    QString path;
    quint64 device = 0;
    quint64 inode = 0;
    qint64 size = 0;
    qint64 modifiedNs = 0;
    qint64 changedNs = 0;
    // The whole file is the run's one document (a .json file holding one run): it is read back whole and
    // minified, as it was when loaded (a UTF-8 BOM and the blanks around it dropped), rather than kept in memory.
    // A file rewritten in place within one tick of the file system's clock keeps its times and size: its bytes'
    // hash (contentHash(), of the whole file as loaded) tells it apart.
    bool wholeDocument = false;
    // The runs' spans are documents as their authors formatted them (a streamed JSON Lines file's lines, or its
    // documents over several lines): each is minified when read back, so that a run keeps no copy of its text
    // however the file is formatted. A wholeDocument source is minified too.
    bool minifyOnRead = false;
    quint64 contentHash = 0;

    static quint64 hashOf(std::string_view bytes);
};

// A document's JSON text, compact. Runs read from one file (or one chunk of a JSON Lines bundle) share one
// buffer and each keeps a span of it; a run built in memory owns its text; a run of a streamed JSON Lines bundle
// keeps only where its line is in the file (RawText(source, offset, size)) and reads it back when asked, and so
// does the run of a file that is one document (its source's wholeDocument: read whole, minified). Converts
// to std::string and std::string_view, and has begin()/end(), so nlohmann::json::parse(run.raw) works.
class RawText
{
public:
    RawText() = default;
    RawText(std::string text) // NOLINT: implicit, so that run.raw = std::string(...) works
        : m_buffer(std::make_shared<const std::string>(std::move(text)))
        , m_size(m_buffer->size())
    {
    }
    RawText(std::shared_ptr<const std::string> buffer, std::size_t offset, std::size_t size)
        : m_buffer(std::move(buffer))
        , m_offset(offset)
        , m_size(size)
    {
    }
    // Not in memory: `size` bytes at `offset` of the source file, read back on first use (a wholeDocument source:
    // the whole file, `size` its size; minified when read back where the source says so, RawSource::minifyOnRead).
    RawText(std::shared_ptr<const RawSource> source, qint64 offset, std::size_t size)
        : m_source(std::move(source))
        , m_offset(std::size_t(offset))
        , m_size(size)
    {
    }

    // Reads the text back from its file if it is not in memory; false (and `error`, naming the file) when the file
    // changed since it was loaded or cannot be read: then view() is empty.
    bool load(QString* error = nullptr) const;
    bool inMemory() const { return !m_source || std::atomic_load(&m_buffer) != nullptr; }
    const RawSource* source() const { return m_source.get(); }

    std::string_view view() const;
    std::string str() const { return std::string(view()); }
    operator std::string_view() const { return view(); } // NOLINT
    operator std::string() const { return str(); } // NOLINT
    const char* data() const { return view().data(); }
    const char* begin() const { return data(); }
    const char* end() const { return data() + view().size(); }
    // The text's size (that of a text minified when read back is known once it is read: asking reads it).
    std::size_t size() const { return minifiedOnRead() ? view().size() : m_size; }
    bool empty() const { return m_source ? m_size == 0 : size() == 0; } // never reads back
    bool operator==(const RawText& o) const { return view() == o.view(); }
    bool operator!=(const RawText& o) const { return !(*this == o); }

private:
    bool minifiedOnRead() const { return m_source && (m_source->wholeDocument || m_source->minifyOnRead); }

    mutable std::shared_ptr<const std::string> m_buffer; // read back into it once (atomically: runs are shared)
    std::shared_ptr<const RawSource> m_source;
    std::size_t m_offset = 0; // into m_buffer, or into the file when m_source is set
    std::size_t m_size = 0; // of the bytes in m_buffer or in the file
};

struct KeyValue
{
    QString key;
    QString value;
};

// Whether a resource that a document carries is the one its run names by digest (kernelindex spec §9.2).
enum class DigestCheck : quint8 {
    NotCarried, // the document holds only the digest
    Verified, // sha256 of the JCS of {apiVersion, kind, spec} is the digest the run names
    Mismatch, // it is not: the resource was changed after the run was written
    VerifiedByDialect, // matches the digest the run's dialect wrote, not the format's (Run::describe says which)
};

// The dialect a run was written in: the format itself, or one that an adapter at the reader's edge loads as its
// writer wrote it (model/read/dialect*.h, where its name and texts live).
enum class Dialect : quint8 {
    Format,
    Kix010,
};

// A run's identityHash(): 16 bytes held in the run itself (a QByteArray would cost a heap block per run).
struct RunIdentity
{
    std::array<quint8, 16> bytes {};

    static RunIdentity fromBytes(const QByteArray& sixteen); // the first 16 bytes (zero-padded)
    bool isEmpty() const; // all zero: not computed
    QByteArray toByteArray() const;
    QByteArray toHex() const { return toByteArray().toHex(); }
    bool operator==(const RunIdentity& o) const { return bytes == o.bytes; }
    bool operator!=(const RunIdentity& o) const { return bytes != o.bytes; }
};
size_t qHash(const RunIdentity& identity, size_t seed = 0) noexcept;

// A resource digest that is almost always unique to its run (the run's own): "sha256:" and 64 lower-case hex
// digits are kept as their 32 bytes (48 bytes in all instead of 24 plus a 160-byte heap block); any other text is
// kept as it is, on the heap, so nothing is lost. Reads as a QString.
class CompactDigest
{
public:
    CompactDigest() = default;
    CompactDigest(const QString& text) { assign(text); } // NOLINT: implicit, so that run.runDigest = text works
    CompactDigest(const CompactDigest& o)
        : m_bytes(o.m_bytes)
        , m_packed(o.m_packed)
        , m_other(o.m_other ? std::make_unique<QString>(*o.m_other) : nullptr)
    {
    }
    CompactDigest(CompactDigest&&) noexcept = default;
    CompactDigest& operator=(const CompactDigest& o)
    {
        if (this != &o)
            *this = CompactDigest(o);
        return *this;
    }
    CompactDigest& operator=(CompactDigest&&) noexcept = default;
    ~CompactDigest() = default;
    CompactDigest& operator=(const QString& text)
    {
        assign(text);
        return *this;
    }
    QString toString() const;
    operator QString() const { return toString(); } // NOLINT
    std::string toStdString() const { return toString().toStdString(); }
    bool isEmpty() const { return !m_packed && !m_other; }
    void clear() { assign(QString()); }
    // "sha256:" and the lower-case hex of these 32 bytes (what assigning that text keeps, without the text).
    void assignSha256(const unsigned char (&hash)[32]);
    // When it is such a digest: its text, as toString() writes it, in ASCII (no QString made), and true.
    bool sha256Text(char (&out)[71]) const;
    bool operator==(const CompactDigest& o) const
    {
        if (m_packed || o.m_packed)
            return m_packed == o.m_packed && m_bytes == o.m_bytes;
        return m_other && o.m_other ? *m_other == *o.m_other : m_other == o.m_other;
    }
    bool operator!=(const CompactDigest& o) const { return !(*this == o); }
    friend bool operator==(const CompactDigest& a, const QString& b) { return a.toString() == b; }
    friend bool operator!=(const CompactDigest& a, const QString& b) { return !(a == b); }

private:
    void assign(const QString& text);

    std::array<quint8, 32> m_bytes {};
    bool m_packed = false;
    std::unique_ptr<QString> m_other; // the text when it is not empty nor sha256:<64 lower-case hex>
};

// What a run's linked documents say beyond its digests: the format's strict comparison key (the cohort the
// format ranks the run in) and the names people know. Held once per distinct content (Run::linked).
struct RunLinks
{
    // model/format/comparisonkey.h. Empty when the run links no verified workload document or lacks a digest:
    // Run::strictKeyMissing() says which.
    CompactDigest comparisonKey;
    QString operationTitle; // OperationSpec metadata.title ("Causal depthwise conv1d")
    QStringList operationAliases; // the catalog's operation_aliases ("causal_conv1d")
    QString implementationTitle; // ImplementationRevision metadata.title ("causal_conv1d · submission 555004")
    QStringList authors; // ImplementationRevision metadata.authors[].name: the leaderboard user or team
    QString project; // SoftwareProject spec.name
    QString workloadTitle; // WorkloadCase metadata.title, or "suite of N cases" for a WorkloadSuite
    QString protocolName; // "sol-execbench v1.1": the harness's name and version, else the protocol's name
    QString timer; // the protocol's measurement.timer ("cuda_events")

    bool isEmpty() const;
    bool operator==(const RunLinks& o) const;
    // The same content held once (a per-thread cache, as the run's shared lists); null when empty.
    static std::shared_ptr<const RunLinks> share(RunLinks links);
};

// A step of the catalog export's record ledger (its record_events table) that credits a run: the run took the record
// of the cohort `comparisonKey` (the format's strict comparison key) at `at`, from the run whose digest is
// `previousRunDigest` (empty for a cohort's first record). Kept so that kix's own ledger can be checked against it
// (recordTimelines).
struct ExportedRecord
{
    QString comparisonKey;
    QString at; // as the export writes it: "2026-05-21T06:52:01.709Z"
    QString previousRunDigest;
};

// Typed, read-only view of one kernelindex document (a BenchmarkRun with its protocol and environment when
// present). The document itself is kept as compact JSON text in `raw`, so that exporting it again loses nothing.
// A run reads the same whether its document came as a .json file, an element of a JSON array or a line of a
// .jsonl file: every field, the labels' order, the search text and the raw text.
//
// A million of them are held at once, so each byte counts: strings that repeat are interned (model/stringpool.h)
// and repeated lists shared (finalize()); the filter's search text is made on demand (searchText()), not kept.
struct Run
{
    enum class Metric : quint8 { Latency, Memory, Other };

    // Where it came from.
    QString file;
    QString pointer; // JSON pointer of the document inside the file ("" for a whole-file document)

    // The typed view: kernel from the embedded OperationSpec, provider from the ImplementationRevision, workload
    // and dtype from the WorkloadCase; else kernel from sourceNative.benchmark; the Liger externalId convention
    // `kernel/pass/provider/gpu-slug/workload-slug/timestamp` only where it holds. Unknown stays empty.
    QString externalId;
    QString name;
    QString title;
    QString apiVersion;
    QString kernel;
    QString pass;
    QString provider;
    QString gpuSlug;
    QString workloadSlug;
    QString status; // "passed", one of the format's 12 failure statuses, a dialect's own "failed", ...
    QDateTime observedAt; // UTC; invalid when absent or unparsable
    QString source; // sourceNative.source, e.g. liger-kernel-bench, kix-engine
    QString benchmark; // sourceNative.benchmark, the producer's name for it (the filter's words search it)

    // Hardware (environment.spec.hardware).
    QString gpuVendor;
    QString gpuProduct;
    QString gpuArchitecture;

    // Workload parsed from the slug; dtype is kept apart ("fp32").
    QVector<WorkloadParam> workload;
    QString dtype;

    // Headline statistics. Latency runs are in ns; memory runs (Liger "memory" rows) in MB; other metrics (a
    // leaderboard "score" in s, a throughput) in their measurement's unit.
    QString headlineMetric; // the metric's name when it is Other ("score"); see metricName()
    QString unit = QStringLiteral("ns");
    double median = std::numeric_limits<double>::quiet_NaN(); // the headline value: see headlineStatistic
    QString headlineStatistic = QStringLiteral("median"); // "mean" for nvbench runs (timing.primaryStatistic)
    double p20 = std::numeric_limits<double>::quiet_NaN();
    double p80 = std::numeric_limits<double>::quiet_NaN();
    QVector<Measurement> statistics; // every other statistic of the headline metric (min, max, mean, ...)
    QVector<Measurement> measurements; // measurements of other metrics
    std::vector<double> samples; // raw samples of the headline metric, when the run carries them
    std::vector<double> cpuSamples; // CPU time per repetition, ns, when the run carries them (Google Benchmark)

    QString protocolDigest;
    QString workloadDigest;
    QString environmentDigest;
    QString implementationDigest;
    QString operationDigest; // the embedded WorkloadCase's operationSpecDigest (or the implementation's)
    CompactDigest runDigest; // the run resource's own digest: its identity
    // What the documents the run links say: the format's strict comparison key and the names people know. Shared
    // by the runs (of a thread) whose links say the same, and absent (null) for a run that links none.
    std::shared_ptr<const RunLinks> linked;

    // What the document carries beside the run, checked against the digests the run names.
    DigestCheck protocolCheck = DigestCheck::NotCarried;
    DigestCheck workloadCheck = DigestCheck::NotCarried;
    DigestCheck environmentCheck = DigestCheck::NotCarried;
    DigestCheck implementationCheck = DigestCheck::NotCarried;
    DigestCheck operationCheck = DigestCheck::NotCarried;
    Dialect dialect = Dialect::Format; // the dialect an adapter read it in (inline samples, its own digests, ...)
    Metric metric = Metric::Latency; // beside the one-byte fields above: no padding

    QVector<KeyValue> labels;
    QString protocolFamily;
    QString protocolNotes;
    QVector<KeyValue> software;

    RawText raw; // the document as loaded, compact JSON (a span of its file's buffer)
    // The export's record ledger steps that credit this run (a catalog export's record_events); null for nearly
    // every run: only record holders have one.
    std::shared_ptr<const QVector<ExportedRecord>> exportedRecords;

    RunIdentity identity; // identityHash(), computed by finalize() on the thread that built the run: call
                          // finalize() again after changing the externalId or a digest

    // Fills identity and shares the workload, labels and software lists with the runs (of this thread) that have
    // the same ones; called once by whoever builds the run.
    void finalize();

    // Lower-case UTF-8 of every displayed field, space-separated: what the filter box's words search (the filter
    // matches them field by field, model/filter/runfilter.cpp, which finds the same runs). Made on each call.
    QByteArray searchText() const;

    bool isLatency() const { return metric == Metric::Latency; }
    // The headline's metric as the format names it: "latency", "memory", "score", "throughput", ...
    QString metricName() const;
    // The status is one of the format's 12 failure statuses (or a dialect's own): shown, never ranked or charted.
    bool failed() const;
    static bool isFailureStatus(const QString& status);
    // "verified", "does not match: the resource was changed after the run was written", ...; a digest of the
    // run's dialect as that dialect names it.
    static QString describe(DigestCheck check, Dialect dialect = Dialect::Format);
    // The dialect's name, and the note shown for it; empty for the format itself.
    QString dialectName() const;
    QString dialectNote() const;
    // Value of a workload parameter, or an empty string.
    QString param(const QString& key) const;
    double paramNumber(const QString& key) const;
    // Statistic of the headline metric by name: "median", "p20", "p80", "min", "max", "mean", ...; NaN if absent.
    double statistic(const QString& name) const;
    // (p80 - p20) / median; NaN when not available.
    double spread() const;
    // A p20-p80 spread above this fraction of the median makes a run noisy: its verdicts are not to be trusted.
    static constexpr double noisySpread = 0.10;
    bool isNoisy() const { return spread() > noisySpread; }
    // A measurement of another metric by name ("bandwidth", "bytes_moved"); NaN if absent.
    double measurementValue(const QString& metric) const;
    // Achieved GB/s, as the run recorded it (kix's own runs do); NaN if absent.
    double achievedGBs() const { return measurementValue(QStringLiteral("bandwidth")); }
    // Achieved / copy bandwidth measured in the same session (0..1); NaN when the run does not say.
    double bandwidthFraction() const;
    // Key for duplicate detection: the run resource's digest (runDigest), so that repeated observations (same four
    // digests, another observedAt or result) stay apart; for a run built without a document, its externalId, four
    // digests, status, observedAt and headline. identityHash() is its 16-byte digest.
    QString identityKey() const;
    RunIdentity identityHash() const;
    const QString& gpuDisplayName() const { return gpuProduct.isEmpty() ? gpuSlug : gpuProduct; }
    // The linked documents' key and names (empty ones for a run that links none).
    const RunLinks& links() const;
    // The parts of the strict comparison key the run cannot give ("workload document (operation, correctness)",
    // "protocol digest", ...); empty when comparisonKey is set.
    QStringList strictKeyMissing() const;
    // The authors joined ("brandonin", "a, b"), else the project.
    QString authorText() const;
    // How a person names the implementation: "brandonin · submission 555004" (the authors, then the title less the
    // operation's name it starts with), else the title, else the provider.
    QString implementationLabel() const;
};

using RunPtr = std::shared_ptr<const Run>;
using RunList = QVector<RunPtr>;

} // namespace kix
