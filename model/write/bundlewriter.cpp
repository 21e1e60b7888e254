// SPDX-License-Identifier: Apache-2.0
#include "model/write/bundlewriter.h"

#include "model/format/strictcheck.h"
#include "model/write/runwriter.h"

#include <set>
#include <string>

namespace kix {

using json = nlohmann::json;

namespace {

// One list of the bundle, each resource once (as canonical text: nlohmann/json keeps keys sorted).
class List
{
public:
    bool add(const json& resource)
    {
        if (!m_seen.insert(resource.dump(-1, ' ', false, json::error_handler_t::replace)).second)
            return false;
        m_items.push_back(resource);
        return true;
    }
    bool empty() const { return m_items.empty(); }
    json take() { return std::move(m_items); }

private:
    json m_items = json::array();
    std::set<std::string> m_seen;
};

QString where(const Run& run)
{
    return run.pointer.isEmpty() ? run.file : run.file + QLatin1Char(' ') + run.pointer;
}

} // namespace

BundleResult buildBundle(const RunList& runs)
{
    BundleResult result;
    List projects, operations, workloads, implementations, wrappers;
    for (const RunPtr& run : runs) {
        QString unread;
        if (!run->raw.load(&unread)) { // its file changed since it was loaded: left out, not written wrong
            result.leftOut << where(*run) + QStringLiteral(": ") + unread;
            continue;
        }
        const json document = json::parse(run->raw.view(), nullptr, false);
        if (document.is_discarded() || !document.is_object()) {
            result.leftOut << where(*run) + QStringLiteral(": the run's document is not JSON");
            continue;
        }
        json wrapper = json::object();
        if (document.contains("run")) {
            for (const char* part : { "run", "protocol", "environment" }) {
                if (document.contains(part))
                    wrapper[part] = document[part];
            }
        } else {
            wrapper["run"] = document;
        }
        format::StrictReport report;
        format::checkStrict(wrapper, {}, report);
        json linked = json::object();
        for (const char* part : { "workload", "operation", "implementation", "project" }) {
            if (document.contains(part) && document[part].is_object()) {
                format::StrictReport own;
                format::checkStrict(document[part], {}, own);
                if (own.findings.empty())
                    linked[part] = document[part];
            }
        }
        if (!report.findings.empty()) {
            const format::StrictFinding& first = report.findings.front();
            result.leftOut << where(*run)
                    + QStringLiteral(": not v1alpha1 (%1 deviations; first %2: %3)")
                          .arg(report.findings.size())
                          .arg(first.pointer, first.message);
            continue;
        }
        if (!wrappers.add(wrapper)) {
            result.leftOut << where(*run) + QStringLiteral(": the same run as one already in the bundle");
            continue;
        }
        ++result.runs;
        if (linked.contains("workload"))
            workloads.add(linked["workload"]);
        if (linked.contains("operation"))
            operations.add(linked["operation"]);
        if (linked.contains("project"))
            projects.add(linked["project"]);
        if (linked.contains("implementation")) {
            json entry = json::object();
            // a project's slug in a bundle is its metadata name (the catalog's projects.slug is the same)
            if (linked.contains("project") && linked["project"].contains("metadata")
                && linked["project"]["metadata"].value("name", json()).is_string())
                entry["projectSlug"] = linked["project"]["metadata"]["name"];
            entry["manifest"] = linked["implementation"];
            implementations.add(entry);
        }
    }
    json bundle = json::object();
    // in the order of the format's own fixture: parents first
    auto put = [&](const char* name, List& list) {
        if (!list.empty())
            bundle[name] = list.take();
    };
    put("projects", projects);
    put("operations", operations);
    put("workloads", workloads);
    put("implementations", implementations);
    bundle["runs"] = wrappers.take();
    result.bundle = std::move(bundle);
    return result;
}

bool writeBundle(const RunList& runs, const QString& path, BundleResult* result, QString* error)
{
    BundleResult built = buildBundle(runs);
    // nlohmann/json sorts keys; the lists are written in the fixture's order by building the text by hand
    std::string text = "{";
    bool first = true;
    for (const char* name : { "projects", "operations", "workloads", "implementations", "runs" }) {
        if (!built.bundle.contains(name))
            continue;
        if (!first)
            text += ",";
        first = false;
        text += "\n  \"";
        text += name;
        text += "\": ";
        std::string list = built.bundle[name].dump(2, ' ', false, json::error_handler_t::replace);
        // indent the list's own lines by two more spaces
        std::string indented;
        for (char c : list) {
            indented += c;
            if (c == '\n')
                indented += "  ";
        }
        text += indented;
    }
    text += "\n}\n";
    const bool ok = writeFileAtomically(path, QByteArray::fromStdString(text), error);
    if (result)
        *result = std::move(built);
    return ok;
}

} // namespace kix
