// SPDX-License-Identifier: Apache-2.0
// The run's values: timing.latencyNs, measurements[], the headline chosen among them and the raw samples.
#include "model/read/extractmeasurements.h"

#include "model/format/digest.h"
#include "model/format/documentbuilder.h"
#include "model/read/dialectkix010.h"
#include "model/runfields.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cmath>

namespace kix::extract {

namespace {

// The headline statistics of timing.latencyNs: the format's names, then p20, p80, min and max as other writers
// name them.
const char* const kLatencyStatistics[]
    = { "median", "mean", "p05", "p20", "p80", "p95", "minimum", "maximum", "mad", "min", "max" };

// Makes the latency statistic `stat` the headline (the median it replaces becomes a statistic); false when the run
// has no such statistic.
bool promoteLatency(Run* run, const QString& stat)
{
    for (qsizetype i = 0; i < run->statistics.size(); ++i) {
        if (run->statistics[i].metric == QLatin1String("latency") && run->statistics[i].statistic == stat) {
            const double value = run->statistics[i].value;
            run->statistics.remove(i);
            if (!std::isnan(run->median))
                run->statistics.append(
                    { QStringLiteral("latency"), QStringLiteral("median"), QStringLiteral("ns"), run->median });
            run->median = value;
            run->headlineStatistic = stat;
            return true;
        }
    }
    return false;
}

} // namespace

namespace {

// timing.latencyNs: the median, p20 and p80 by name, every other statistic as a latency statistic.
void readLatencyStatistics(RunExtraction& x)
{
    const Path latencyPointer(x.timingPointer, "latencyNs");
    Run* run = x.run.get();
    for (const char* stat : kLatencyStatistics) {
        const double v = x.fields.duration(x.latencyNs, stat, latencyPointer);
        if (std::isnan(v))
            continue;
        const QLatin1String name(stat);
        if (name == QLatin1String("median"))
            run->median = v;
        else if (name == QLatin1String("p20"))
            run->p20 = v;
        else if (name == QLatin1String("p80"))
            run->p80 = v;
        else
            run->statistics.append({ QStringLiteral("latency"), name, QStringLiteral("ns"), v });
    }
}

// Google Benchmark's CPU time per repetition (sourceNative.cpuTimesNs), for compare.py's CPU U test; or, as kix
// writes it now (sourceNative.metrics holds numbers only), cpu_time_ns_0, cpu_time_ns_1, ...
void readCpuTimes(RunExtraction& x)
{
    FieldReader& r = x.fields;
    Run* run = x.run.get();
    if (const JsonValue cpuTimes = r.member(x.native, "cpuTimesNs"); cpuTimes && isArray(cpuTimes)) {
        for (const Element element : jsondom::asArray(cpuTimes.element)) {
            const JsonValue time { element, true };
            if (!isNumber(time) || !FieldReader::plausible(numberOf(time), true)) {
                r.warning(Path(x.nativePointer, "cpuTimesNs"), QStringLiteral("not an array of times: ignored"));
                run->cpuSamples.clear();
                break;
            }
            run->cpuSamples.push_back(numberOf(time));
        }
    }
    if (!run->cpuSamples.empty())
        return;
    if (const JsonValue metrics = r.member(x.native, "metrics"); metrics && isObject(metrics)) {
        for (int i = 0;; ++i) {
            const std::string key = "cpu_time_ns_" + std::to_string(i);
            const JsonValue time = r.member(metrics, key);
            if (!time || !isNumber(time) || !FieldReader::plausible(numberOf(time), true))
                break;
            run->cpuSamples.push_back(numberOf(time));
        }
    }
}

} // namespace

void readTiming(RunExtraction& x)
{
    FieldReader& r = x.fields;
    // The protocol's primary statistic, for a run whose own timing does not name one.
    x.protocolSpec = r.object(x.protocol, "spec", x.protocolMember);
    x.protocolMeasurement = r.object(x.protocolSpec, "measurement", x.protocolPointer);
    x.protocolPrimary = r.shared(x.protocolMeasurement, "primaryStatistic", x.protocolMeasurementPointer);

    // Headline: the latency statistic timing.primaryStatistic names.
    x.timing = r.object(x.spec, "timing", x.specPointer);
    x.latencyNs = r.object(x.timing, "latencyNs", x.timingPointer);
    x.primary = r.shared(x.timing, "primaryStatistic", x.timingPointer);
    if (x.primary.isEmpty())
        x.primary = x.protocolPrimary;
    readLatencyStatistics(x);
    Run* run = x.run.get();
    if (!x.primary.isEmpty() && x.primary != QLatin1String("median") && x.latencyNs) {
        if (!promoteLatency(run, x.primary) && std::isnan(run->median))
            r.warning(Path(x.timingPointer, "primaryStatistic"),
                QStringLiteral("the primary statistic \"%1\" is not among timing.latencyNs").arg(x.primary));
    }
    if (std::isnan(run->median) && x.latencyNs)
        promoteLatency(run, QStringLiteral("mean"));
    dialects::readInlineSamples(x);
    readCpuTimes(x);
}

namespace {

// One entry of measurements[] at `mp`: a latency in ns (by name when it is the median, p20 or p80), a memory
// measurement kept aside for the headline, or any other measurement.
void readMeasurement(RunExtraction& x, JsonValue m, const Path& mp)
{
    FieldReader& r = x.fields;
    Run* run = x.run.get();
    if (!isObject(m)) {
        r.error(mp, QStringLiteral("expected an object, found %1").arg(typeNameOf(m)));
        return;
    }
    Measurement value;
    value.metric = r.shared(m, "metric", mp);
    value.statistic = r.shared(m, "statistic", mp);
    value.unit = r.shared(m, "unit", mp);
    const JsonValue raw = r.member(m, "value");
    if (!raw) {
        r.error(Path(mp, "value"), QStringLiteral("the measurement has no value"));
        return;
    }
    bool timeUnit = false;
    const bool isLatency = value.metric == QLatin1String("latency");
    const bool isTime = isLatency && value.unit != QLatin1String("count");
    double v = isNumber(raw) && FieldReader::plausible(numberOf(raw), isTime)
        ? numberOf(raw)
        : r.checkNumber(raw, Path(mp, "value"), isTime);
    if (std::isnan(v))
        return;
    if (!isTime) {
        value.value = v;
        if (value.metric == QLatin1String("memory"))
            x.memory.append(value);
        else if (isLatency)
            run->statistics.append(value); // the sample count
        else
            run->measurements.append(value);
        return;
    }
    v = toNs(v, value.unit, &timeUnit);
    if (!timeUnit) {
        r.error(Path(mp, "unit"), QStringLiteral("unknown latency unit \"%1\"").arg(value.unit));
        return;
    }
    value.unit = QStringLiteral("ns");
    value.value = v;
    if (value.statistic == QLatin1String("p20") && std::isnan(run->p20))
        run->p20 = v;
    else if (value.statistic == QLatin1String("p80") && std::isnan(run->p80))
        run->p80 = v;
    else if (value.statistic == QLatin1String("median") && std::isnan(run->median))
        run->median = v;
    else
        run->statistics.append(value);
}

} // namespace

void readMeasurements(RunExtraction& x)
{
    const JsonValue measurements = x.fields.member(x.spec, "measurements");
    if (!measurements)
        return;
    if (!isArray(measurements)) {
        x.fields.error(
            x.measurementsPointer, QStringLiteral("expected an array, found %1").arg(typeNameOf(measurements)));
        return;
    }
    qsizetype i = -1;
    for (const Element element : jsondom::asArray(measurements.element)) {
        ++i;
        readMeasurement(x, JsonValue { element, true }, Path(x.measurementsPointer, i));
    }
}

namespace {

// sourceNative.metrics (Liger's ms_20, ms_50, ms_80) fill whatever the spec lacks.
void fillFromLigerMetrics(RunExtraction& x)
{
    FieldReader& r = x.fields;
    Run* run = x.run.get();
    if (JsonValue metrics = r.object(x.native, "metrics", x.nativePointer); metrics && x.liger) {
        const Path mp(x.nativePointer, "metrics");
        const double ms50 = r.number(metrics, "ms_50", mp, true);
        const double ms20 = r.number(metrics, "ms_20", mp, true);
        const double ms80 = r.number(metrics, "ms_80", mp, true);
        if (std::isnan(run->median) && !std::isnan(ms50))
            run->median = std::round(ms50 * 1e6);
        if (std::isnan(run->p20) && !std::isnan(ms20))
            run->p20 = std::round(ms20 * 1e6);
        if (std::isnan(run->p80) && !std::isnan(ms80))
            run->p80 = std::round(ms80 * 1e6);
    }
}

// A run with no latency: its memory measurement is the headline; else its one measurement (a leaderboard score, a
// throughput), or the one whose statistic the protocol names, or the first. A failed run has no headline: what it
// measured (bytes, an error) stays a measurement.
void headlineFromMeasurements(RunExtraction& x)
{
    Run* run = x.run.get();
    if (std::isnan(run->median) && !x.memory.isEmpty()) {
        run->metric = Run::Metric::Memory;
        // "mb" is how the format spells "MB" (units match ^[a-z][a-z0-9_]*$); shown as MB either way
        run->unit = x.memory.first().unit.isEmpty() || x.memory.first().unit == QLatin1String("mb")
            ? QStringLiteral("MB")
            : x.memory.first().unit;
        for (const Measurement& m : x.memory) {
            if (m.statistic == QLatin1String("median"))
                run->median = m.value;
            else if (m.statistic == QLatin1String("p20"))
                run->p20 = m.value;
            else if (m.statistic == QLatin1String("p80"))
                run->p80 = m.value;
            else
                run->statistics.append(m);
        }
    } else if (std::isnan(run->median) && !run->measurements.isEmpty() && !run->failed()) {
        qsizetype pick = 0;
        for (qsizetype i = 0; i < run->measurements.size(); ++i) {
            if (!x.protocolPrimary.isEmpty() && run->measurements[i].statistic == x.protocolPrimary) {
                pick = i;
                break;
            }
        }
        const Measurement headline = run->measurements.takeAt(pick);
        run->metric = Run::Metric::Other;
        run->headlineMetric = headline.metric;
        run->unit = headline.unit;
        run->median = headline.value;
        run->headlineStatistic = headline.statistic;
        run->measurements += x.memory;
    } else {
        run->measurements += x.memory;
    }
}

} // namespace

bool chooseHeadline(RunExtraction& x)
{
    Run* run = x.run.get();
    fillFromLigerMetrics(x);
    // A latency measured only as measurements[] ({latency, mean, ns}): the primary statistic, else the mean.
    if (std::isnan(run->median) && !(x.primary.isEmpty() || x.primary == QLatin1String("median")))
        promoteLatency(run, x.primary);
    if (std::isnan(run->median))
        promoteLatency(run, QStringLiteral("mean"));
    headlineFromMeasurements(x);

    FieldReader& r = x.fields;
    if (r.failed())
        return false;
    if (std::isnan(run->median) && !run->failed())
        r.warning(x.specPointer,
            QStringLiteral("no headline measurement: the run has no timing.latencyNs and no measurements; loaded "
                           "without a value"));
    if (!std::isnan(run->median)) {
        if ((!std::isnan(run->p20) && run->p20 > run->median) || (!std::isnan(run->p80) && run->p80 < run->median)
            || (!std::isnan(run->p20) && !std::isnan(run->p80) && run->p20 > run->p80))
            r.warning(x.measurementsPointer,
                QStringLiteral("quantiles out of order: p20 %1, median %2, p80 %3")
                    .arg(run->p20, 0, 'g', 10)
                    .arg(run->median, 0, 'g', 10)
                    .arg(run->p80, 0, 'g', 10));
    }
    return true;
}

namespace {

// timing.rawSamples: the evidence file beside `document`, when its name stays in the document's folder and its
// bytes digest to `digest`; a warning at `pointer` otherwise (the run loads without samples).
void readSamplesBeside(Run& run, const QString& document, const QString& uri, const QString& digest,
    const QString& pointer, Diagnostics& out)
{
    auto refuse = [&](const QString& why) {
        out.append(makeWarning(document, pointer, QStringLiteral("raw samples \"%1\" not used: %2").arg(uri, why)));
    };
    if (uri.contains(QLatin1String("://")) || uri.startsWith(QLatin1Char('/')) || uri.contains(QLatin1Char('\\'))
        || uri.split(QLatin1Char('/')).contains(QStringLiteral(".."))) {
        refuse(QStringLiteral("only a file beside the document is read"));
        return;
    }
    const QDir folder = QFileInfo(document).absoluteDir();
    const QFileInfo info(folder.filePath(uri));
    if (!info.exists())
        return; // the document travelled without its evidence file: nothing to say per run
    const QString canonical = info.canonicalFilePath();
    if (!canonical.startsWith(folder.canonicalPath() + QLatin1Char('/'))) {
        refuse(QStringLiteral("it leads out of the document's folder"));
        return;
    }
    constexpr qint64 maxBytes = qint64(64) << 20;
    QFile f(canonical);
    if (info.size() > maxBytes || !f.open(QIODevice::ReadOnly)) {
        refuse(info.size() > maxBytes ? QStringLiteral("larger than 64 MiB") : f.errorString());
        return;
    }
    const std::string bytes = f.readAll().toStdString();
    if (QString::fromStdString(format::sha256Digest(bytes)) != digest) {
        refuse(QStringLiteral("the file does not match the digest the run names"));
        return;
    }
    std::vector<double> samples;
    if (!format::parseSamplesArtifact(bytes, samples)) {
        refuse(QStringLiteral("not a raw-samples file kix reads"));
        return;
    }
    run.samples = std::move(samples);
}

} // namespace

void readRawSamples(RunExtraction& x)
{
    // Raw samples named by timing.rawSamples {uri, digest}: read only from beside the document (a relative name that
    // stays in its folder, never a URL or an absolute path from a file kix did not write) and used only when the
    // file's digest is the one the run names.
    if (!x.run->samples.empty())
        return;
    const JsonValue raw = x.fields.member(x.timing, "rawSamples");
    const QString uri = x.fields.textOf(raw, "uri");
    const QString digest = x.fields.textOf(raw, "digest");
    if (!uri.isEmpty() && !digest.isEmpty() && !x.file.startsWith(QLatin1Char(':')))
        readSamplesBeside(*x.run, x.file, uri, digest, Path(Path(x.timingPointer, "rawSamples"), "uri").str(), x.out);
}

} // namespace kix::extract
