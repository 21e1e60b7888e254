// SPDX-License-Identifier: Apache-2.0
// kix bench: GroupNorm benchmarks on this machine with the engine; the request grammar is the engine's
// (engine/benchmarkrequest.h), shared with the Benchmark panel.
#include "app/commands/bench.h"

#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "engine/backendregistry.h"
#include "engine/benchmarkrequest.h"
#include "engine/benchmarksession.h"

#include <QDir>
#include <QFile>

#include <cmath>
#include <memory>

#include <unistd.h>

namespace kix::cli {
namespace {

bool parseCount(const QString& text, qint64& value)
{
    bool ok = false;
    value = text.trimmed().toLongLong(&ok);
    return ok;
}

QString fixed(double value, int decimals)
{
    return std::isfinite(value) ? QString::number(value, 'f', decimals) : QStringLiteral("-");
}

bool isTerminal(QTextStream& stream)
{
    auto* file = qobject_cast<QFile*>(stream.device());
    return file && file->handle() >= 0 && isatty(file->handle());
}

void printResults(QTextStream& out, const QVector<BenchmarkResult>& results)
{
    const QStringList header = { QStringLiteral("pass"), QStringLiteral("impl"), QStringLiteral("dtype"),
        QStringLiteral("M"), QStringLiteral("C"), QStringLiteral("H"), QStringLiteral("cpg"), QStringLiteral("status"),
        QStringLiteral("median us"), QStringLiteral("p20 us"), QStringLiteral("p80 us"), QStringLiteral("GB/s"),
        QStringLiteral("% copy"), QStringLiteral("max rel err"), QStringLiteral("samples") };
    QVector<QStringList> rows { header };
    for (const BenchmarkResult& r : results) {
        const BenchmarkSpec& s = r.spec;
        const bool timed = r.status == BenchmarkResult::Status::Passed;
        rows.append({ passName(s.pass), s.implementation, dtypeName(s.dtype), QString::number(s.batch),
            QString::number(s.channels), QString::number(s.hidden), QString::number(s.channelsPerGroup),
            statusName(r.status), timed ? fixed(r.statistics.median / 1e3, 1) : QStringLiteral("-"),
            timed ? fixed(r.statistics.p20 / 1e3, 1) : QStringLiteral("-"),
            timed ? fixed(r.statistics.p80 / 1e3, 1) : QStringLiteral("-"),
            timed ? fixed(r.bandwidthGBs, 2) : QStringLiteral("-"),
            timed ? fixed(100 * r.bandwidthFraction, 1) : QStringLiteral("-"),
            r.hasDocument() ? QString::number(r.correctness.maxRelativeError, 'e', 2) : QStringLiteral("-"),
            timed ? QString::number(r.statistics.count) : QStringLiteral("-") });
    }
    QVector<int> widths(header.size(), 0);
    for (const QStringList& row : rows)
        for (int i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], int(row[i].size()));
    for (const QStringList& row : rows) {
        QStringList cells;
        for (int i = 0; i < row.size(); ++i)
            cells << (i < 3 || i == 7 ? row[i].leftJustified(widths[i]) : row[i].rightJustified(widths[i]));
        out << cells.join(QStringLiteral("  ")).trimmed() << '\n';
    }
}

const char* const kEpilog
    = "--sweep channels=32,64,...,2048 runs every value (A,B,...,Z: geometric when B is a multiple of A,\n"
      "else arithmetic with step B-A); KEY is batch (M), channels (C), hidden (H) or channels_per_group;\n"
      "repeat it to sweep more keys (the cross product). Every spec is checked before anything runs.\n"
      "--cuda-graph (CUDA devices; also KIX_CUDA_GRAPH=1) replays each repetition as one CUDA graph launch\n"
      "instead of one launch per kernel; the run's protocol records it.\n";

} // namespace

int runBench(const QStringList& args, QTextStream& out, QTextStream& err, BackendRegistry* registry)
{
    CommandLine cl(QStringLiteral("bench"),
        QStringLiteral("Runs GroupNorm benchmarks on this machine (CUDA or CPU) and writes one kernelindex run per "
                       "(pass, shape, dtype, implementation) into DIR."),
        out, err);
    const QCommandLineOption device(QStringLiteral("device"), QStringLiteral("auto, cpu or cuda[:N] (default auto)."),
        QStringLiteral("DEVICE"), QStringLiteral("auto"));
    const QCommandLineOption pass(QStringLiteral("pass"),
        QStringLiteral("forward, backward and/or full, comma-separated (default all)."), QStringLiteral("PASSES"),
        QStringLiteral("forward,backward,full"));
    const QCommandLineOption shape(QStringLiteral("shape"),
        QStringLiteral("Batch, channels, elements per channel (default 128,2048,512)."), QStringLiteral("M,C,H"),
        QStringLiteral("128,2048,512"));
    const QCommandLineOption cpg(
        QStringLiteral("channels-per-group"), QStringLiteral("Default 4."), QStringLiteral("N"), QStringLiteral("4"));
    const QCommandLineOption sweep(
        QStringLiteral("sweep"), QStringLiteral("Sweep a shape key (see below)."), QStringLiteral("KEY=VALUES"));
    const QCommandLineOption dtype(QStringLiteral("dtype"),
        QStringLiteral("fp32, bf16 and/or fp16, comma-separated (default fp32)."), QStringLiteral("DTYPES"),
        QStringLiteral("fp32"));
    const QCommandLineOption impl(QStringLiteral("impl"),
        QStringLiteral("Implementations, comma-separated, or all (default: the device's first)."),
        QStringLiteral("NAMES"));
    const QCommandLineOption warmup(QStringLiteral("warmup-ms"), QStringLiteral("Warm-up time (default 25)."),
        QStringLiteral("MS"), QStringLiteral("25"));
    const QCommandLineOption rep(QStringLiteral("rep-ms"), QStringLiteral("Timed repetitions' time (default 100)."),
        QStringLiteral("MS"), QStringLiteral("100"));
    const QCommandLineOption noise(QStringLiteral("noise-stop"),
        QStringLiteral("Repeat past --rep-ms until the relative standard error of the mean is 0.5%."));
    const QCommandLineOption maxMs(QStringLiteral("max-ms"),
        QStringLiteral("Time cap of one run with --noise-stop (default 2000)."), QStringLiteral("MS"),
        QStringLiteral("2000"));
    const QCommandLineOption outDir(
        QStringLiteral("out"), QStringLiteral("The folder for the run files (created)."), QStringLiteral("DIR"));
    const QCommandLineOption cudaGraph(
        QStringLiteral("cuda-graph"), QStringLiteral("Replay each repetition as one CUDA graph."));
    for (const QCommandLineOption& option :
        { device, pass, shape, cpg, sweep, dtype, impl, warmup, rep, noise, maxMs, outDir, cudaGraph })
        cl.addOption(option);
    cl.setEpilog(QString::fromLatin1(kEpilog));
    if (!cl.parse(args))
        return cl.exitCode();
    if (!cl.positional().isEmpty())
        return cl.usageError(QStringLiteral("unexpected argument '%1'").arg(cl.positional().first()));
    if (cl.value(outDir).isEmpty())
        return cl.usageError(QStringLiteral("--out DIR is required"));

    BenchmarkRequest request;
    BenchmarkSpec& base = request.base;
    const QStringList dims = cl.value(shape).split(QLatin1Char(','));
    if (dims.size() != 3 || !parseCount(dims[0], base.batch) || !parseCount(dims[1], base.channels)
        || !parseCount(dims[2], base.hidden))
        return cl.usageError(QStringLiteral("--shape expects M,C,H (got '%1')").arg(cl.value(shape)));
    if (!parseCount(cl.value(cpg), base.channelsPerGroup))
        return cl.usageError(QStringLiteral("--channels-per-group expects an integer (got '%1')").arg(cl.value(cpg)));
    bool ok = false;
    base.timing.warmupMs = cl.value(warmup).toDouble(&ok);
    if (!ok)
        return cl.usageError(QStringLiteral("--warmup-ms expects a number (got '%1')").arg(cl.value(warmup)));
    base.timing.repMs = cl.value(rep).toDouble(&ok);
    if (!ok)
        return cl.usageError(QStringLiteral("--rep-ms expects a number (got '%1')").arg(cl.value(rep)));
    base.timing.maxMs = cl.value(maxMs).toDouble(&ok);
    if (!ok)
        return cl.usageError(QStringLiteral("--max-ms expects a number (got '%1')").arg(cl.value(maxMs)));
    base.timing.noiseStop = cl.isSet(noise);
    base.timing.cudaGraph = cl.isSet(cudaGraph);

    for (const QString& p : cl.value(pass).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        Pass value;
        if (!parsePass(p.trimmed(), value))
            return cl.usageError(QStringLiteral("unknown pass '%1' (expected forward, backward or full)").arg(p));
        request.passes << value;
    }
    for (const QString& d : cl.value(dtype).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        DType value;
        if (!parseDType(d.trimmed(), value))
            return cl.usageError(QStringLiteral("unknown dtype '%1' (expected fp32, bf16 or fp16)").arg(d));
        request.dtypes << value;
    }
    if (request.passes.isEmpty() || request.dtypes.isEmpty())
        return cl.usageError(QStringLiteral("--pass and --dtype need at least one value"));
    for (const QString& s : cl.parser().values(sweep)) {
        SweepAxis axis;
        QString error;
        if (!parseSweepAxis(s, axis, error))
            return cl.usageError(error);
        request.sweeps << axis;
    }

    std::unique_ptr<BackendRegistry> owned;
    if (!registry) {
        owned = std::make_unique<BackendRegistry>();
        registry = owned.get();
    }
    Backend* backend = nullptr;
    DeviceInfo info;
    QString error;
    if (!registry->resolve(cl.value(device), backend, info, error))
        return cl.fail(error);
    // "auto" passing over a backend that is built in but unusable: say why, or the user sees CPU numbers
    // without knowing the GPU was never tried.
    const QString wanted = cl.value(device).trimmed().toLower();
    const bool automatic = wanted.isEmpty() || wanted == QStringLiteral("auto");
    for (const auto& b : registry->backends())
        if (automatic && b.get() != backend && b->devices().isEmpty() && !b->unavailableReason().isEmpty())
            err << "kix bench: no usable " << b->name() << " device (" << b->unavailableReason() << "); using "
                << info.id << '\n';
    base.device = info.id;
    request.implementations = cl.value(impl).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (request.implementations.isEmpty() || request.implementations == QStringList { QStringLiteral("all") })
        request.implementations = cl.isSet(impl) ? backend->implementations() : backend->implementations().mid(0, 1);

    // Every spec is validated before any runs.
    BenchmarkSession session(*registry);
    QVector<BenchmarkSpec> specs = expandRequest(request);
    for (BenchmarkSpec& spec : specs) {
        const QString refusal = session.resolve(spec);
        if (!refusal.isEmpty())
            return cl.usageError(QStringLiteral("%1 %2: %3").arg(passName(spec.pass), spec.workloadSlug(), refusal));
    }

    const bool terminal = isTerminal(err);
    QVector<BenchmarkResult> results;
    int exitCode = ExitOk;
    for (int i = 0; i < specs.size(); ++i) {
        const BenchmarkSpec& spec = specs[i];
        const QString label = QStringLiteral("[%1/%2] %3 %4 %5 on %6")
                                  .arg(i + 1)
                                  .arg(specs.size())
                                  .arg(passName(spec.pass), spec.implementation, spec.workloadSlug(), info.id);
        err << label << (terminal ? " ..." : "\n");
        err.flush();
        TimingHooks hooks;
        int lastPercent = -1;
        if (terminal)
            hooks.progress = [&](double fraction) {
                const int percent = int(fraction * 100);
                if (percent / 5 != lastPercent / 5) {
                    lastPercent = percent;
                    err << '\r' << label << ' ' << percent << '%';
                    err.flush();
                }
            };
        BenchmarkResult result = session.run(spec, hooks);
        QString writeError;
        if (result.hasDocument() && !BenchmarkSession::writeDocument(result, cl.value(outDir), writeError)) {
            result.message = writeError;
            exitCode = ExitFailure;
        }
        if (terminal)
            err << '\r' << label << ' ' << statusName(result.status) << "    \n";
        if (result.status != BenchmarkResult::Status::Passed) {
            err << "  " << statusName(result.status) << ": " << result.message << '\n';
            exitCode = ExitFailure;
        } else if (!writeError.isEmpty()) {
            err << "  " << writeError << '\n';
        }
        // Recorded in the document too; said here because a throttled GPU makes every number after it suspect.
        const auto warning = result.deviceDetails.find("warning");
        if (warning != result.deviceDetails.end() && warning->is_string() && !warning->get<std::string>().empty())
            err << "  warning: " << QString::fromStdString(warning->get<std::string>()) << '\n';
        err.flush();
        results << result;
    }

    printResults(out, results);
    out << "copy bandwidth of " << info.id << " (" << info.name
        << "): " << fixed(results.isEmpty() ? NAN : results.first().copyBandwidthGBs, 2) << " GB/s\n";
    int written = 0;
    for (const BenchmarkResult& r : results)
        written += r.filePath.isEmpty() ? 0 : 1;
    out << written << " run file(s) written to " << QDir(cl.value(outDir)).absolutePath() << '\n';
    out.flush();
    return exitCode;
}

int benchCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    return runBench(args, out, err, nullptr);
}

} // namespace kix::cli
