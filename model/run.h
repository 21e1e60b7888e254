// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QVector>

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

// The file a run's text is read back from when it is not kept in memory (a streamed JSON Lines bundle), with what
// identified it when it was read: a file changed since (another size, modification or change time, or inode) is
// not read back, so an export never writes bytes other than those loaded.
struct RawSource
{
    QString path;
    quint64 device = 0;
    quint64 inode = 0;
    qint64 size = 0;
    qint64 modifiedNs = 0;
    qint64 changedNs = 0;
};

// A document's JSON text, compact. Runs read from one file (or one chunk of a JSON Lines bundle) share one
// buffer and each keeps a span of it; a run built in memory owns its text; a run of a streamed JSON Lines bundle
// keeps only where its line is in the file (RawText(source, offset, size)) and reads it back when asked. Converts
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
    // Not in memory: `size` bytes at `offset` of the source file, read back on first use.
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
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    bool operator==(const RawText& o) const { return view() == o.view(); }
    bool operator!=(const RawText& o) const { return !(*this == o); }

private:
    mutable std::shared_ptr<const std::string> m_buffer; // read back into it once (atomically: runs are shared)
    std::shared_ptr<const RawSource> m_source;
    std::size_t m_offset = 0; // into m_buffer, or into the file when m_source is set
    std::size_t m_size = 0;
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
    VerifiedKix010, // matches the digest kix 0.1.0 wrote (the whole resource, or its spec, as nlohmann dumps it)
};

// Typed, read-only view of one kernelindex document (a BenchmarkRun with its protocol and environment when
// present). The document itself is kept as compact JSON text in `raw`, so that exporting it again loses nothing.
// A run reads the same whether its document came as a .json file, an element of a JSON array or a line of a
// .jsonl file: every field, the labels' order, the search text and the raw text.
struct Run
{
    enum class Metric { Latency, Memory, Other };

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
    QString status; // "passed", one of the format's 12 failure statuses, kix 0.1.0's "failed", ...
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
    Metric metric = Metric::Latency;
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
    QString runDigest; // the run resource's own digest: its identity

    // What the document carries beside the run, checked against the digests the run names.
    DigestCheck protocolCheck = DigestCheck::NotCarried;
    DigestCheck workloadCheck = DigestCheck::NotCarried;
    DigestCheck environmentCheck = DigestCheck::NotCarried;
    DigestCheck implementationCheck = DigestCheck::NotCarried;
    DigestCheck operationCheck = DigestCheck::NotCarried;
    bool writtenByKix010 = false; // kix 0.1.0's dialect (inline samples, its own digests, status "failed")

    QVector<KeyValue> labels;
    QString protocolFamily;
    QString protocolNotes;
    QString timer;
    QVector<KeyValue> software;

    RawText raw; // the document as loaded, compact JSON (a span of its file's buffer)
    QByteArray searchText; // lower-case UTF-8 of every displayed field, for the filter box (set by finalize())

    QByteArray identity; // identityHash(), computed by finalize() on the thread that built the run: call finalize()
                         // again after changing the externalId or a digest

    // Fills searchText and identity; called once by whoever builds the run.
    void finalize();

    bool isLatency() const { return metric == Metric::Latency; }
    // The headline's metric as the format names it: "latency", "memory", "score", "throughput", ...
    QString metricName() const;
    // The status is one of the format's 12 failure statuses (or kix 0.1.0's "failed"): shown, never ranked or charted.
    bool failed() const;
    static bool isFailureStatus(const QString& status);
    // "verified", "does not match: the resource was changed after the run was written", ...
    static QString describe(DigestCheck check);
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
    QByteArray identityHash() const;
    QString gpuDisplayName() const { return gpuProduct.isEmpty() ? gpuSlug : gpuProduct; }
};

using RunPtr = std::shared_ptr<const Run>;
using RunList = QVector<RunPtr>;

} // namespace kix
