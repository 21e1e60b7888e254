// SPDX-License-Identifier: Apache-2.0
// kix diff RUN... [--run ID] [--filter TEXT] [--all] [--format table|markdown|csv|json]: 2 to 8 runs compared
// field by field (model/compare/rundiff.h).
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "model/compare/rundiff.h"

#include <QFileInfo>
#include <QHash>

namespace kix::cli {

namespace {

// One way the arguments name runs: a place in a file, a digest prefix, an externalId.
struct Selector
{
    enum Type { Pointer, Digest, ExternalId } type;
    QString file; // Pointer: the file, canonical
    QString text; // the pointer, the digest prefix or the externalId
    QString argument; // as typed, for messages
};

QString canonical(const QString& path)
{
    const QFileInfo info(path);
    const QString c = info.canonicalFilePath();
    return c.isEmpty() ? info.absoluteFilePath() : c;
}

// The length of the longest beginning of `arg` that is a file (not a folder), cut before a '/'; 0 when none is.
qsizetype filePrefix(const QString& arg)
{
    for (qsizetype slash = arg.lastIndexOf(QLatin1Char('/')); slash > 0;
         slash = arg.lastIndexOf(QLatin1Char('/'), slash - 1)) {
        if (QFileInfo(arg.left(slash)).isFile())
            return slash;
    }
    return 0;
}

// The paths the positional arguments name (in order, once each) and the selectors among them: FILE#POINTER,
// FILE/POINTER, a digest prefix.
void readDiffArguments(const QStringList& positional, QStringList& paths, QVector<Selector>& selectors)
{
    auto addPath = [&paths](const QString& path) {
        if (!paths.contains(path))
            paths << path;
    };
    for (const QString& arg : positional) {
        const qsizetype hash = arg.lastIndexOf(QLatin1Char('#'));
        if (QFileInfo::exists(arg)) {
            addPath(arg);
        } else if (arg.startsWith(QLatin1String("sha256:"))) {
            selectors.append({ Selector::Digest, {}, arg, arg });
        } else if (hash > 0 && QFileInfo::exists(arg.left(hash))) {
            addPath(arg.left(hash));
            selectors.append({ Selector::Pointer, canonical(arg.left(hash)), arg.mid(hash + 1), arg });
        } else if (const qsizetype cut = filePrefix(arg); cut > 0) {
            // FILE/POINTER, as kix list's file column prints a run of a file that holds many
            addPath(arg.left(cut));
            selectors.append({ Selector::Pointer, canonical(arg.left(cut)), arg.mid(cut), arg });
        } else {
            addPath(arg); // the loader names it as missing
        }
    }
}

// Whether the selector names the run (canonicalFiles: run.file -> canonical path, filled once per file).
bool diffSelectorMatches(const Selector& s, const Run& run, QHash<QString, QString>& canonicalFiles)
{
    bool match = false;
    switch (s.type) {
    case Selector::Pointer: {
        auto it = canonicalFiles.find(run.file);
        if (it == canonicalFiles.end())
            it = canonicalFiles.insert(run.file, canonical(run.file));
        match = run.pointer == s.text && it.value() == s.file;
        break;
    }
    case Selector::Digest:
        match = run.runDigest.toString().startsWith(s.text) || run.implementationDigest.startsWith(s.text);
        break;
    case Selector::ExternalId:
        match = run.externalId == s.text;
        break;
    }
    return match;
}

// The candidates the selectors name, in the selectors' order, once each; the first selector that names none, or
// nullptr when each names one.
const Selector* pickDiffRuns(const QVector<Selector>& selectors, const RunList& candidates, RunList& picked)
{
    QHash<QString, QString> canonicalFiles; // run.file -> canonical path, once per file
    for (const Selector& s : selectors) {
        int matched = 0;
        for (const RunPtr& run : candidates) {
            if (!diffSelectorMatches(s, *run, canonicalFiles))
                continue;
            ++matched;
            if (!picked.contains(run))
                picked << run;
        }
        if (matched == 0)
            return &s;
    }
    return nullptr;
}

} // namespace

int diffCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("diff"),
        QStringLiteral("Compares 2 to 8 runs field by field: every field kix holds for each run and every leaf of "
                       "its document, aligned by section and path. Differences come first: material (protocol, "
                       "environment, workload, correctness, metric, statistic, unit, status and their digests), "
                       "then measurements (values, statistics), then cosmetic ones (titles, names, labels, "
                       "metadata, files, times, the implementation). The last line says whether the runs share "
                       "the format's strict comparison key."),
        out, err);
    cl.addPaths(
        QStringLiteral("Run files or folders (every run they hold), FILE#POINTER or FILE/POINTER (the run "
                       "at that JSON pointer of the file, as kix list prints it), or a digest prefix sha256:... "
                       "(a run's runDigest or implementationDigest, among the runs of the files given)."));
    cl.addFilter();
    const QCommandLineOption runOption(QStringLiteral("run"),
        QStringLiteral("The run whose externalId is ID, among the runs of the files given (repeatable)."),
        QStringLiteral("ID"));
    const QCommandLineOption allOption(QStringLiteral("all"),
        QStringLiteral("Show the equal fields too (table and markdown; csv and json always "
                       "hold every field)."));
    cl.addOption(runOption);
    cl.addOption(allOption);
    cl.addFormats(
        { QStringLiteral("table"), QStringLiteral("markdown"), QStringLiteral("csv"), QStringLiteral("json") });
    cl.setEpilog(QStringLiteral(
        "Without a selector (FILE#POINTER, a digest, --run) every run of the files that --filter keeps is "
        "compared; with selectors, the runs they name (that --filter keeps). Fewer than 2 or more than 8 runs is a "
        "usage error.\n\nExamples:\n  kix diff a.json b.json\n  kix diff catalog.jsonl.zst#/16989 "
        "catalog.jsonl.zst/16990 --format markdown\n  kix diff catalog.jsonl.zst --run submission/506336 --run "
        "submission/492956\n  kix diff runs/ --filter \"group_norm channels=2048 gpu:b200\" --format csv"));
    if (!cl.parse(args))
        return cl.exitCode();

    QStringList paths;
    QVector<Selector> selectors;
    readDiffArguments(cl.positional(), paths, selectors);
    for (const QString& id : cl.parser().values(runOption))
        selectors.append({ Selector::ExternalId, {}, id, QStringLiteral("--run ") + id });
    if (paths.isEmpty())
        return cl.usageError(QStringLiteral("no PATH given: a digest or --run selects among the runs of files"));

    const LoadResult result = loadPaths(paths);
    cl.report(result.diagnostics);
    if (result.files == 0)
        cl.refuse(QStringLiteral("no run files found in %1").arg(paths.join(QStringLiteral(", "))));
    const RunList candidates = cl.filtered(result.runs);

    RunList picked;
    if (selectors.isEmpty()) {
        picked = candidates;
    } else if (const Selector* unmatched = pickDiffRuns(selectors, candidates, picked)) {
        return cl.usageError(QStringLiteral("%1 names no run among the %2 %3")
                                 .arg(unmatched->argument)
                                 .arg(candidates.size())
                                 .arg(cl.isSet(QStringLiteral("filter")) ? QStringLiteral("that --filter keeps")
                                                                         : QStringLiteral("loaded")));
    }
    if (const QString problem = runDiffCountProblem(picked.size()); !problem.isEmpty())
        return cl.usageError(problem);

    const RunDiff diff = diffRuns(picked);
    const QString format = cl.format();
    const bool all = cl.isSet(allOption);
    const QByteArray text = format == QLatin1String("json") ? runDiffToJson(diff)
        : format == QLatin1String("csv")                    ? runDiffToCsv(diff)
        : format == QLatin1String("markdown")               ? runDiffToMarkdown(diff, all)
                                                            : runDiffToTable(diff, all);
    out << QString::fromUtf8(text);
    out.flush();
    return cl.finish();
}

} // namespace kix::cli
