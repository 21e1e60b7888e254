// SPDX-License-Identifier: Apache-2.0
#include "app/commands/commandline.h"

#include "model/filter/runfilter.h"
#include "model/write/texttable.h"

#include <QLocale>
#include <QSet>

#include <algorithm>
#include <functional>

namespace kix::cli {

CommandLine::CommandLine(const QString& name, const QString& description, QTextStream& out, QTextStream& err)
    : m_name(name)
    , m_out(out)
    , m_err(err)
    , m_help({ QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Show this help and exit."))
{
    m_parser.setApplicationDescription(description);
    m_parser.addOption(m_help);
}

void CommandLine::addPaths(const QString& description)
{
    m_paths = true;
    addPositional(QStringLiteral("PATH"), description, QStringLiteral("PATH..."));
    m_parser.addOption({ QStringLiteral("verbose"),
        QStringLiteral("Print every warning (by default, after 20 of one kind the rest are counted).") });
}

void CommandLine::addFilter()
{
    m_filter = true;
    m_parser.addOption({ QStringLiteral("filter"), filterOptionHelp(), QStringLiteral("TEXT") });
}

void CommandLine::addFormats(const QStringList& formats)
{
    m_formats = formats;
    m_parser.addOption({ QStringLiteral("format"),
        QStringLiteral("%1 (default %2).").arg(formats.join(QStringLiteral(", ")), formats.value(0)),
        QStringLiteral("FORMAT"), formats.value(0) });
}

void CommandLine::addPositional(const QString& name, const QString& description, const QString& syntax)
{
    m_parser.addPositionalArgument(name, description, syntax.isEmpty() ? name : syntax);
}

void CommandLine::addLeadingArgument(const QString& name, const QString& description)
{
    m_leading << name;
    addPositional(name, description);
}

QString CommandLine::usage() const
{
    // QCommandLineParser names the executable by its path; the usage line names the command instead.
    QString text = m_parser.helpText();
    const int firstLineEnd = int(text.indexOf(QLatin1Char('\n')));
    const QString firstLine = text.left(firstLineEnd);
    const int options = int(firstLine.indexOf(QLatin1String(" [options]")));
    text.replace(0, options < 0 ? firstLineEnd : options, QStringLiteral("Usage: kix ") + m_name);
    if (!m_epilog.isEmpty())
        text += QLatin1Char('\n') + m_epilog + (m_epilog.endsWith(QLatin1Char('\n')) ? "" : "\n");
    return text;
}

bool CommandLine::parse(const QStringList& args)
{
    if (!m_parser.parse(QStringList { QStringLiteral("kix ") + m_name } + args)) {
        m_exitCode = usageError(m_parser.errorText());
        return false;
    }
    if (m_parser.isSet(m_help)) {
        m_out << usage();
        m_out.flush();
        m_exitCode = ExitOk;
        return false;
    }
    if (!m_formats.isEmpty() && !m_formats.contains(format())) {
        m_exitCode = usageError(
            QStringLiteral("unknown --format \"%1\" (%2)").arg(format(), m_formats.join(QStringLiteral(", "))));
        return false;
    }
    if (positional().size() < m_leading.size()) {
        m_exitCode = usageError(QStringLiteral("no %1 given").arg(m_leading.value(positional().size())));
        return false;
    }
    if (m_paths && paths().isEmpty()) {
        m_exitCode = usageError(QStringLiteral("no PATH given"));
        return false;
    }
    if (m_hasAlpha) {
        bool ok = false;
        m_alpha = value(QStringLiteral("alpha")).toDouble(&ok);
        if (!ok || !(m_alpha > 0 && m_alpha < 1)) {
            m_exitCode = usageError(QStringLiteral("--alpha must be a number between 0 and 1"));
            return false;
        }
    }
    return true;
}

void CommandLine::addAlpha(const QString& description)
{
    m_parser.addOption(
        QCommandLineOption(QStringLiteral("alpha"), description, QStringLiteral("A"), QStringLiteral("0.05")));
    m_hasAlpha = true;
}

int CommandLine::usageError(const QString& message)
{
    m_err << "kix " << m_name << ": " << message << "\n\n" << usage();
    m_err.flush();
    m_exitCode = ExitUsage;
    return ExitUsage;
}

int CommandLine::fail(const QString& message)
{
    m_err << "kix " << m_name << ": " << message << "\n";
    m_err.flush();
    return ExitFailure;
}

void CommandLine::refuse(const QString& message)
{
    fail(message);
    m_refused = true;
}

void CommandLine::report(const Diagnostics& diagnostics, QTextStream* to)
{
    QTextStream& stream = to ? *to : m_err;
    for (const Diagnostic& d : diagnostics)
        m_refused = m_refused || d.isError();
    const bool verbose = m_paths && m_parser.isSet(QStringLiteral("verbose"));
    const GroupedDiagnostics grouped = groupDiagnostics(diagnostics, verbose ? diagnostics.size() + 1 : 20);
    for (const qsizetype i : grouped.printed)
        stream << diagnostics[i].toString() << "\n";
    for (const GroupedDiagnostics::Folded& f : grouped.folded)
        stream << QStringLiteral("kix: … and %1 more like \"%2\" (--verbose prints every one)\n")
                      .arg(QLocale(QLocale::English).toString(qlonglong(f.count)), f.pattern);
    stream.flush();
}

namespace {

// The runs a command loaded stay until the process ends, which returns their memory at once: freed one by one
// after the output is written, 100k runs cost the command tens of milliseconds more (docs/benchmarks.md), as
// compilers too leave their trees to the exit. A pointer in static storage holds them, so a leak checker sees
// them reachable.
void keepUntilExit(const RunList& runs)
{
    static auto* kept = new QList<RunList>;
    kept->append(runs);
}

} // namespace

LoadResult CommandLine::load(QTextStream* diagnosticsTo)
{
    const QStringList paths = this->paths();
    const LoadResult result = loadPaths(paths);
    keepUntilExit(result.runs);
    report(result.diagnostics, diagnosticsTo);
    if (result.files == 0)
        refuse(QStringLiteral("no run files found in %1").arg(paths.join(QStringLiteral(", "))));
    return result;
}

RunList CommandLine::loadRuns()
{
    return filtered(load().runs);
}

RunList CommandLine::filtered(const RunList& runs) const
{
    if (!m_filter)
        return runs;
    RunFilter filter;
    filter.setText(m_parser.value(QStringLiteral("filter")));
    return filter.apply(runs);
}

void printTable(const QStringList& header, const QVector<QStringList>& rows, QTextStream& out)
{
    TextTable table(header);
    for (const QStringList& row : rows)
        table.addRow(row);
    Utf8Writer writer(out);
    table.writeAligned(std::ref(writer));
}

bool baselineFromOption(const QString& value, const RunList& runs, Baseline* baseline, QString* error)
{
    if (value.isEmpty()) {
        *baseline = Baseline::defaultFor(runs);
        return true;
    }
    if (value.startsWith(QLatin1String("run:"))) {
        const QString id = value.mid(4);
        for (const RunPtr& run : runs) {
            if (run->externalId == id || run->name == id) {
                *baseline = Baseline::ofRun(run);
                return true;
            }
        }
        *error = QStringLiteral("--baseline %1: no such run among the %2 selected").arg(value).arg(runs.size());
        return false;
    }
    QSet<QString> present;
    for (const RunPtr& run : runs)
        present.insert(run->provider);
    const QStringList providers = value.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& p : providers) {
        if (present.contains(p)) {
            *baseline = Baseline::ofProviders(providers);
            return true;
        }
    }
    QStringList known = present.values();
    std::sort(known.begin(), known.end());
    *error = QStringLiteral("--baseline %1: no runs of that provider among the %2 selected (providers: %3)")
                 .arg(value)
                 .arg(runs.size())
                 .arg(known.join(QStringLiteral(", ")));
    return false;
}

} // namespace kix::cli
