// SPDX-License-Identifier: Apache-2.0
// kix list PATH... [--filter TEXT] [--format table|csv|json]: a row per run.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "model/write/runwriter.h"

#include <nlohmann/json.hpp>

#include <functional>

namespace kix::cli {

int listCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("list"), QStringLiteral("Lists runs: a row per run."), out, err);
    cl.addPaths(QStringLiteral("Files or folders (searched recursively)."));
    cl.addFilter();
    cl.addFormats({ QStringLiteral("table"), QStringLiteral("csv"), QStringLiteral("json") });
    if (!cl.parse(args))
        return cl.exitCode();
    const LoadResult result = cl.load();
    const RunList runs = cl.filtered(result.runs);

    if (cl.format() == QLatin1String("csv")) {
        Utf8Writer writer(out);
        listTable(runs).writeCsv(std::ref(writer));
    } else if (cl.format() == QLatin1String("json")) {
        nlohmann::json rows = nlohmann::json::array();
        const QStringList columns = listColumns();
        for (const RunPtr& run : runs) {
            const QStringList cells = listRow(*run);
            nlohmann::json row = nlohmann::json::object();
            for (int c = 0; c < columns.size(); ++c) {
                const std::string key = columns[c].toStdString();
                bool numeric = false;
                const double v = cells[c].toDouble(&numeric);
                if (numeric && (key == "value" || key == "p20" || key == "p80"))
                    row[key] = v;
                else
                    row[key] = cells[c].toStdString();
            }
            row["external_id"] = run->externalId.toStdString();
            rows.push_back(std::move(row));
        }
        out << QString::fromStdString(rows.dump(2)) << "\n";
    } else {
        Utf8Writer writer(out);
        listTable(runs).writeAligned(std::ref(writer));
        writer.flush();
        err << runs.size() << " of " << result.runs.size() << " runs\n";
    }
    return cl.finish();
}

} // namespace kix::cli
