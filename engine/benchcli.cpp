#include "engine/benchcli.h"

#include "engine/backendregistry.h"
#include "engine/benchmarksession.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>

#include <cmath>
#include <cstdio>
#include <memory>

#include <unistd.h>

namespace kix {
namespace {

struct SweepAxis
{
    QString key; // batch, channels, hidden, channels_per_group
    QList<qint64> values;
};

bool parseCount(const QString& text, qint64& value)
{
    bool ok = false;
    value = text.trimmed().toLongLong(&ok);
    return ok;
}

bool parseSweep(const QString& text, SweepAxis& axis, QString& error)
{
    const int equals = text.indexOf(QLatin1Char('='));
    if (equals <= 0) {
        error = QStringLiteral("--sweep expects KEY=V1,V2,... (got '%1')").arg(text);
        return false;
    }
    const QString key = text.left(equals).trimmed().toLower();
    static const QHash<QString, QString> keys = {
        { QStringLiteral("batch"), QStringLiteral("batch") },
        { QStringLiteral("m"), QStringLiteral("batch") },
        { QStringLiteral("channels"), QStringLiteral("channels") },
        { QStringLiteral("c"), QStringLiteral("channels") },
        { QStringLiteral("hidden"), QStringLiteral("hidden") },
        { QStringLiteral("h"), QStringLiteral("hidden") },
        { QStringLiteral("channels_per_group"), QStringLiteral("channels_per_group") },
        { QStringLiteral("channels-per-group"), QStringLiteral("channels_per_group") },
    };
    if (!keys.contains(key)) {
        error = QStringLiteral("--sweep: unknown key '%1' (expected batch, channels, hidden or channels_per_group)")
                    .arg(text.left(equals));
        return false;
    }
    axis.key = keys.value(key);
    if (!parseSweepValues(text.mid(equals + 1), axis.values, error)) {
        error = QStringLiteral("--sweep %1: %2").arg(axis.key, error);
        return false;
    }
    return true;
}

void setAxis(BenchmarkSpec& spec, const QString& key, qint64 value)
{
    if (key == QStringLiteral("batch"))
        spec.batch = value;
    else if (key == QStringLiteral("channels"))
        spec.channels = value;
    else if (key == QStringLiteral("hidden"))
        spec.hidden = value;
    else
        spec.channelsPerGroup = value;
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

void printTable(QTextStream& out, const QVector<BenchmarkResult>& results)
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

QString usage()
{
    return QStringLiteral(
        "Usage: kix bench [--device auto|cpu|cuda[:N]] [--pass forward,backward,full] [--shape M,C,H]\n"
        "                 [--channels-per-group N] [--sweep KEY=V1,V2,...] [--dtype fp32,bf16,fp16]\n"
        "                 [--impl NAME,...] [--warmup-ms N] [--rep-ms N] [--noise-stop] [--max-ms N]\n"
        "                 [--cuda-graph] --out DIR\n"
        "Defaults: --device auto, every pass, --shape 128,2048,512, --channels-per-group 4, --dtype fp32,\n"
        "the device's default implementation, --warmup-ms 25, --rep-ms 100.\n"
        "--sweep channels=32,64,...,2048 runs every value (a,b,...,z: geometric when b is a multiple of a,\n"
        "else arithmetic); KEY is batch, channels, hidden or channels_per_group; repeat it to sweep more keys.\n"
        "--cuda-graph (CUDA devices; also KIX_CUDA_GRAPH=1) replays each repetition as one CUDA graph launch\n"
        "instead of one launch per kernel; the run's protocol records it.\n");
}

} // namespace

bool parseSweepValues(const QString& text, QList<qint64>& values, QString& error)
{
    values.clear();
    const QStringList parts = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    const int ellipsis = parts.indexOf(QStringLiteral("..."));
    QList<qint64> given;
    for (int i = 0; i < parts.size(); ++i) {
        if (i == ellipsis)
            continue;
        qint64 v = 0;
        if (!parseCount(parts[i], v) || v <= 0) {
            error = QStringLiteral("'%1' is not a positive integer").arg(parts[i].trimmed());
            return false;
        }
        given << v;
    }
    if (given.isEmpty()) {
        error = QStringLiteral("no values");
        return false;
    }
    if (ellipsis < 0) {
        values = given;
        return true;
    }
    if (ellipsis != 2 || parts.size() != 4 || given[1] <= given[0] || given[2] < given[1]) {
        error = QStringLiteral("expected A,B,...,Z with A < B <= Z (got '%1')").arg(text);
        return false;
    }
    const qint64 a = given[0], b = given[1], z = given[2];
    constexpr int kMaxValues = 4096;
    if (b % a == 0) {
        QList<qint64> geometric;
        for (qint64 v = a; v <= z && geometric.size() < kMaxValues; v *= b / a)
            geometric << v;
        if (geometric.last() == z) {
            values = geometric;
            return true;
        }
    }
    if ((z - a) % (b - a) != 0 || (z - a) / (b - a) >= kMaxValues) {
        error = QStringLiteral("'%1' reaches neither %2 geometrically nor arithmetically").arg(text).arg(z);
        return false;
    }
    for (qint64 v = a; v <= z; v += b - a)
        values << v;
    return true;
}

int runBenchCommand(const QStringList& args, QTextStream& out, QTextStream& err, BackendRegistry* registry)
{
    QCommandLineParser parser;
    const QCommandLineOption help(QStringList { QStringLiteral("h"), QStringLiteral("help") });
    const QCommandLineOption device(
        QStringLiteral("device"), QString(), QStringLiteral("DEVICE"), QStringLiteral("auto"));
    const QCommandLineOption pass(
        QStringLiteral("pass"), QString(), QStringLiteral("PASSES"), QStringLiteral("forward,backward,full"));
    const QCommandLineOption shape(
        QStringLiteral("shape"), QString(), QStringLiteral("M,C,H"), QStringLiteral("128,2048,512"));
    const QCommandLineOption cpg(
        QStringLiteral("channels-per-group"), QString(), QStringLiteral("N"), QStringLiteral("4"));
    const QCommandLineOption sweep(QStringLiteral("sweep"), QString(), QStringLiteral("KEY=VALUES"));
    const QCommandLineOption dtype(
        QStringLiteral("dtype"), QString(), QStringLiteral("DTYPES"), QStringLiteral("fp32"));
    const QCommandLineOption impl(QStringLiteral("impl"), QString(), QStringLiteral("NAMES"));
    const QCommandLineOption warmup(QStringLiteral("warmup-ms"), QString(), QStringLiteral("MS"), QStringLiteral("25"));
    const QCommandLineOption rep(QStringLiteral("rep-ms"), QString(), QStringLiteral("MS"), QStringLiteral("100"));
    const QCommandLineOption noise(QStringLiteral("noise-stop"));
    const QCommandLineOption maxMs(QStringLiteral("max-ms"), QString(), QStringLiteral("MS"), QStringLiteral("2000"));
    const QCommandLineOption outDir(QStringLiteral("out"), QString(), QStringLiteral("DIR"));
    const QCommandLineOption cudaGraph(QStringLiteral("cuda-graph"));
    parser.addOptions(
        { help, device, pass, shape, cpg, sweep, dtype, impl, warmup, rep, noise, maxMs, outDir, cudaGraph });

    auto fail = [&](const QString& message) {
        err << "kix bench: " << message << '\n' << usage();
        err.flush();
        return BenchUsage;
    };
    if (!parser.parse(QStringList { QStringLiteral("kix-bench") } + args))
        return fail(parser.errorText());
    if (parser.isSet(help)) {
        out << usage();
        return BenchOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return fail(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()));
    if (!parser.isSet(outDir) || parser.value(outDir).isEmpty())
        return fail(QStringLiteral("--out DIR is required"));

    BenchmarkSpec base;
    const QStringList dims = parser.value(shape).split(QLatin1Char(','));
    if (dims.size() != 3 || !parseCount(dims[0], base.batch) || !parseCount(dims[1], base.channels)
        || !parseCount(dims[2], base.hidden))
        return fail(QStringLiteral("--shape expects M,C,H (got '%1')").arg(parser.value(shape)));
    if (!parseCount(parser.value(cpg), base.channelsPerGroup))
        return fail(QStringLiteral("--channels-per-group expects an integer (got '%1')").arg(parser.value(cpg)));
    bool ok = false;
    base.timing.warmupMs = parser.value(warmup).toDouble(&ok);
    if (!ok)
        return fail(QStringLiteral("--warmup-ms expects a number (got '%1')").arg(parser.value(warmup)));
    base.timing.repMs = parser.value(rep).toDouble(&ok);
    if (!ok)
        return fail(QStringLiteral("--rep-ms expects a number (got '%1')").arg(parser.value(rep)));
    base.timing.maxMs = parser.value(maxMs).toDouble(&ok);
    if (!ok)
        return fail(QStringLiteral("--max-ms expects a number (got '%1')").arg(parser.value(maxMs)));
    base.timing.noiseStop = parser.isSet(noise);
    base.timing.cudaGraph = parser.isSet(cudaGraph);

    QList<Pass> passes;
    for (const QString& p : parser.value(pass).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        Pass value;
        if (!parsePass(p.trimmed(), value))
            return fail(QStringLiteral("unknown pass '%1' (expected forward, backward or full)").arg(p));
        passes << value;
    }
    QList<DType> dtypes;
    for (const QString& d : parser.value(dtype).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        DType value;
        if (!parseDType(d.trimmed(), value))
            return fail(QStringLiteral("unknown dtype '%1' (expected fp32, bf16 or fp16)").arg(d));
        dtypes << value;
    }
    if (passes.isEmpty() || dtypes.isEmpty())
        return fail(QStringLiteral("--pass and --dtype need at least one value"));
    QList<SweepAxis> axes;
    for (const QString& s : parser.values(sweep)) {
        SweepAxis axis;
        QString error;
        if (!parseSweep(s, axis, error))
            return fail(error);
        axes << axis;
    }

    std::unique_ptr<BackendRegistry> owned;
    if (!registry) {
        owned = std::make_unique<BackendRegistry>();
        registry = owned.get();
    }
    Backend* backend = nullptr;
    DeviceInfo info;
    QString error;
    if (!registry->resolve(parser.value(device), backend, info, error)) {
        err << "kix bench: " << error << '\n';
        return BenchFailure;
    }
    // "auto" passing over a backend that is built in but unusable: say why, or the user sees CPU numbers
    // without knowing the GPU was never tried.
    const QString wanted = parser.value(device).trimmed().toLower();
    const bool automatic = wanted.isEmpty() || wanted == QStringLiteral("auto");
    for (const auto& b : registry->backends())
        if (automatic && b.get() != backend && b->devices().isEmpty() && !b->unavailableReason().isEmpty())
            err << "kix bench: no usable " << b->name() << " device (" << b->unavailableReason() << "); using "
                << info.id << '\n';
    base.device = info.id;
    QStringList implementations = parser.value(impl).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (implementations.isEmpty() || implementations == QStringList { QStringLiteral("all") })
        implementations = parser.isSet(impl) ? backend->implementations() : backend->implementations().mid(0, 1);

    // Every (pass, shape, dtype, implementation), shapes in sweep order; all validated before any runs.
    QVector<BenchmarkSpec> shapes { base };
    for (const SweepAxis& axis : axes) {
        QVector<BenchmarkSpec> next;
        for (const BenchmarkSpec& s : shapes)
            for (const qint64 v : axis.values) {
                BenchmarkSpec copy = s;
                setAxis(copy, axis.key, v);
                next << copy;
            }
        shapes = next;
    }
    BenchmarkSession session(*registry);
    QVector<BenchmarkSpec> specs;
    for (const Pass p : passes)
        for (const BenchmarkSpec& s : shapes)
            for (const DType d : dtypes)
                for (const QString& name : implementations) {
                    BenchmarkSpec spec = s;
                    spec.pass = p;
                    spec.dtype = d;
                    spec.implementation = name.trimmed();
                    const QString refusal = session.resolve(spec);
                    if (!refusal.isEmpty())
                        return fail(QStringLiteral("%1 %2: %3").arg(passName(p), spec.workloadSlug(), refusal));
                    specs << spec;
                }

    const bool terminal = isTerminal(err);
    QVector<BenchmarkResult> results;
    int exitCode = BenchOk;
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
        if (result.hasDocument() && !BenchmarkSession::writeDocument(result, parser.value(outDir), writeError)) {
            result.message = writeError;
            exitCode = BenchFailure;
        }
        if (terminal)
            err << '\r' << label << ' ' << statusName(result.status) << "    \n";
        if (result.status != BenchmarkResult::Status::Passed) {
            err << "  " << statusName(result.status) << ": " << result.message << '\n';
            exitCode = BenchFailure;
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

    printTable(out, results);
    out << "copy bandwidth of " << info.id << " (" << info.name
        << "): " << fixed(results.isEmpty() ? NAN : results.first().copyBandwidthGBs, 2) << " GB/s\n";
    int written = 0;
    for (const BenchmarkResult& r : results)
        written += r.filePath.isEmpty() ? 0 : 1;
    out << written << " run file(s) written to " << QDir(parser.value(outDir)).absolutePath() << '\n';
    out.flush();
    return exitCode;
}

} // namespace kix
