#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QVector>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
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

struct KeyValue
{
    QString key;
    QString value;
};

// Typed, read-only view of one kernelindex document (a BenchmarkRun with its protocol and environment when
// present). The document itself is kept as compact JSON text in `raw`, so that exporting it again loses nothing.
struct Run
{
    enum class Metric { Latency, Memory };

    // Where it came from.
    QString file;
    QString pointer; // JSON pointer of the document inside the file ("" for a whole-file document)

    // Identity, from the externalId `kernel/pass/provider/gpu-slug/workload-slug/timestamp`.
    QString externalId;
    QString name;
    QString title;
    QString apiVersion;
    QString kernel;
    QString pass;
    QString provider;
    QString gpuSlug;
    QString workloadSlug;
    QString status; // "passed", "failed", ...
    QDateTime observedAt; // UTC; invalid when absent or unparsable
    QString source; // sourceNative.source, e.g. liger-kernel-bench, kix-engine

    // Hardware (environment.spec.hardware).
    QString gpuVendor;
    QString gpuProduct;
    QString gpuArchitecture;

    // Workload parsed from the slug; dtype is kept apart ("fp32").
    QVector<WorkloadParam> workload;
    QString dtype;

    // Headline statistics. Latency runs are in ns; memory runs (Liger "memory" rows) in MB.
    Metric metric = Metric::Latency;
    QString unit = QStringLiteral("ns");
    double median = std::numeric_limits<double>::quiet_NaN(); // the headline value: see headlineStatistic
    QString headlineStatistic = QStringLiteral("median"); // "mean" for nvbench runs (timing.primaryStatistic)
    double p20 = std::numeric_limits<double>::quiet_NaN();
    double p80 = std::numeric_limits<double>::quiet_NaN();
    QVector<Measurement> statistics; // every other statistic of the headline metric (min, max, mean, ...)
    QVector<Measurement> measurements; // measurements of other metrics
    std::vector<double> samples; // raw samples of the headline metric, when the run carries them

    QString protocolDigest;
    QString workloadDigest;
    QString environmentDigest;
    QString implementationDigest;

    QVector<KeyValue> labels;
    QString protocolFamily;
    QString protocolNotes;
    QString timer;
    QVector<KeyValue> software;

    std::string raw; // the document as loaded, compact JSON
    QByteArray searchText; // lower-case UTF-8 of every displayed field, for the filter box (set by finalize())

    QByteArray identity; // identityHash(), computed by finalize() on the thread that built the run: call finalize()
                         // again after changing the externalId or a digest

    // Fills searchText and identity; called once by whoever builds the run.
    void finalize();

    bool isLatency() const { return metric == Metric::Latency; }
    // Value of a workload parameter, or an empty string.
    QString param(const QString& key) const;
    double paramNumber(const QString& key) const;
    // Statistic of the headline metric by name: "median", "p20", "p80", "min", "max", "mean", ...; NaN if absent.
    double statistic(const QString& name) const;
    // (p80 - p20) / median; NaN when not available.
    double spread() const;
    // Key for duplicate detection: externalId plus the four digests; identityHash() is its 16-byte digest.
    QString identityKey() const;
    QByteArray identityHash() const;
    QString gpuDisplayName() const { return gpuProduct.isEmpty() ? gpuSlug : gpuProduct; }
};

using RunPtr = std::shared_ptr<const Run>;
using RunList = QVector<RunPtr>;

} // namespace kix
