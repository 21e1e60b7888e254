// SPDX-License-Identifier: Apache-2.0
#include "model/read/bundlereader.h"

#include "model/read/jsonreader.h"
#include "model/read/runextract.h"
#include "model/read/yamlreader.h"

#if __has_include("model/format/digest.h")
#include "model/format/digest.h"
#define KIX_BUNDLE_DIGESTS 1
#else
#define KIX_BUNDLE_DIGESTS 0
#endif

#include <map>
#include <set>
#include <string>

namespace kix {

using json = nlohmann::json;

namespace {

const std::set<std::string>& bundleLists()
{
    static const std::set<std::string> lists { "projects", "operations", "workloads", "implementations", "protocols",
        "environments", "runs" };
    return lists;
}

const std::set<std::string>& knownKinds()
{
    static const std::set<std::string> kinds { "BenchmarkProtocol", "ExecutionEnvironment", "WorkloadCase",
        "WorkloadSuite", "OperationSpec", "ImplementationRevision", "SoftwareProject", "ModelRevision",
        "ServingConfiguration", "ServingRun", "ServingStackRevision", "ServingWorkload" };
    return kinds;
}

QString member(const QString& pointer, const std::string& key)
{
    return pointer + QLatin1Char('/') + pointerToken(key);
}

QString index(const QString& pointer, std::size_t i)
{
    return pointer + QLatin1Char('/') + QString::number(i);
}

bool tooLarge(
    const json& manifest, const QString& file, const QString& pointer, const ParseLimits& limits, Diagnostics& out)
{
    const std::size_t size = manifest.dump(-1, ' ', false, json::error_handler_t::replace).size();
    if (qint64(size) <= limits.maxManifestBytes)
        return false;
    out.append(makeError(file, pointer,
        QStringLiteral("the manifest is %1 bytes, more than the format's limit of %2")
            .arg(size)
            .arg(limits.maxManifestBytes)));
    return true;
}

std::string stringAt(const json& value, const json::json_pointer& at)
{
    if (!value.contains(at))
        return {};
    const json& v = value.at(at);
    return v.is_string() ? v.get<std::string>() : std::string();
}

// Resources of one list by their digest (where the format's digest is at hand in this build).
class Index
{
public:
    void add(const json& manifest)
    {
#if KIX_BUNDLE_DIGESTS
        try {
            m_byDigest.emplace(format::kernelindexDigest(manifest), &manifest);
        } catch (const std::exception&) {
            // not canonicalizable (a number beyond what the format allows): never linked
        }
#else
        (void)manifest;
#endif
    }
    const json* find(const std::string& digest) const
    {
        const auto it = m_byDigest.find(digest);
        return it == m_byDigest.end() ? nullptr : it->second;
    }

private:
    std::map<std::string, const json*> m_byDigest;
};

} // namespace

bool isBundle(const json& value)
{
    if (!value.is_object() || value.empty() || value.contains("kind") || value.contains("run"))
        return false;
    bool named = false;
    for (const auto& [key, list] : value.items()) {
        if (!list.is_array())
            return false;
        named = named || bundleLists().count(key) > 0;
    }
    return named;
}

namespace {

// The resources runs link to, checked for size and indexed by digest.
struct BundleResources
{
    Index workloads, operations, implementations, protocols, environments;
    std::map<std::string, const json*> projects; // by slug (metadata.name)
    std::map<const json*, std::string> projectSlugOf; // implementation manifest -> its wrapper's projectSlug
};

// Reads the bundle's resource lists into `into` (each item an object within the size limit).
void indexBundleResources(
    const json& bundle, const QString& file, const ParseLimits& limits, Diagnostics& out, BundleResources& into)
{
    auto each = [&](const char* list, auto&& visit) {
        const auto it = bundle.find(list);
        if (it == bundle.end())
            return;
        for (std::size_t i = 0; i < it->size(); ++i) {
            const QString pointer = index(member({}, list), i);
            const json& item = (*it)[i];
            if (!item.is_object()) {
                out.append(makeError(file, pointer, QStringLiteral("expected an object")));
                continue;
            }
            visit(item, pointer);
        }
    };
    auto resource = [&](Index& target) {
        return [&](const json& item, const QString& pointer) {
            if (!tooLarge(item, file, pointer, limits, out))
                target.add(item);
        };
    };
    each("workloads", resource(into.workloads));
    each("operations", resource(into.operations));
    each("protocols", resource(into.protocols));
    each("environments", resource(into.environments));
    each("projects", [&](const json& item, const QString& pointer) {
        const std::string name = stringAt(item, "/metadata/name"_json_pointer);
        if (!tooLarge(item, file, pointer, limits, out) && !name.empty())
            into.projects.emplace(name, &item);
    });
    each("implementations", [&](const json& item, const QString& pointer) {
        const json* manifest = &item;
        if (item.contains("manifest") && !item.contains("kind")) {
            manifest = &item["manifest"];
            if (item.contains("projectSlug") && item["projectSlug"].is_string())
                into.projectSlugOf[manifest] = item["projectSlug"].get<std::string>();
        }
        if (!tooLarge(*manifest, file, pointer, limits, out))
            into.implementations.add(*manifest);
    });
}

// Adds to a run's document the resources its digests name (those it does not carry itself).
void linkBundleRunResources(json& document, const BundleResources& resources)
{
    const json& run = document["run"];
    auto link = [&](const char* name, const Index& from, const char* digestField) -> const json* {
        if (document.contains(name))
            return document.contains(name) && document[name].is_object() ? &document[name] : nullptr;
        const std::string digest = stringAt(run, json::json_pointer(std::string("/spec/") + digestField));
        const json* found = digest.empty() ? nullptr : from.find(digest);
        if (found)
            document[name] = *found;
        return found;
    };
    link("protocol", resources.protocols, "protocolDigest");
    link("environment", resources.environments, "environmentDigest");
    const json* workload = link("workload", resources.workloads, "workloadDigest");
    if (workload && !document.contains("operation")) {
        const std::string digest = stringAt(*workload, "/spec/operationSpecDigest"_json_pointer);
        if (const json* operation = digest.empty() ? nullptr : resources.operations.find(digest))
            document["operation"] = *operation;
    }
    const json* implementation = nullptr;
    if (!document.contains("implementation")) {
        const std::string digest = stringAt(run, "/spec/implementationDigest"_json_pointer);
        implementation = digest.empty() ? nullptr : resources.implementations.find(digest);
        if (implementation)
            document["implementation"] = *implementation;
    }
    if (implementation && !document.contains("project")) {
        const auto slug = resources.projectSlugOf.find(implementation);
        const auto project
            = slug == resources.projectSlugOf.end() ? resources.projects.end() : resources.projects.find(slug->second);
        if (project != resources.projects.end())
            document["project"] = *project->second;
    }
}

} // namespace

void readBundle(const json& bundle, const QString& file, const ParseLimits& limits, ParseResult& result)
{
    Diagnostics& out = result.diagnostics;
    for (const auto& [key, list] : bundle.items()) {
        if (!bundleLists().count(key))
            out.append(makeWarning(file, member({}, key),
                QStringLiteral("\"%1\" is not one of a bundle's lists: not read").arg(QString::fromStdString(key))));
    }
    BundleResources resources;
    indexBundleResources(bundle, file, limits, out, resources);

    const auto runs = bundle.find("runs");
    if (runs == bundle.end() || runs->empty()) {
        out.append(makeError(file, {}, QStringLiteral("the bundle holds no runs")));
        return;
    }
    for (std::size_t i = 0; i < runs->size(); ++i) {
        const QString pointer = index(QStringLiteral("/runs"), i);
        const json& item = (*runs)[i];
        if (!item.is_object()) {
            out.append(makeError(file, pointer, QStringLiteral("expected a run: {run, protocol, environment}")));
            continue;
        }
        json document = item.contains("run") ? item : json { { "run", item } };
        bool large = false;
        for (const char* part : { "run", "protocol", "environment" }) {
            if (document.contains(part))
                large = large || tooLarge(document[part], file, member(pointer, part), limits, out);
        }
        if (large)
            continue;
        linkBundleRunResources(document, resources);
        if (RunPtr r = runFromDocument(document, file, pointer, out))
            result.runs.append(std::move(r));
    }
}

void readManifestValue(const json& value, const QString& file, const ParseLimits& limits, ParseResult& result)
{
    if (isBundle(value)) {
        readBundle(value, file, limits, result);
        return;
    }
    auto one = [&](const json& document, const QString& pointer) {
        if (document.is_object() && document.contains("kind") && !document.contains("run")) {
            const std::string kind = document["kind"].is_string() ? document["kind"].get<std::string>() : std::string();
            if (knownKinds().count(kind)) {
                result.diagnostics.append(makeWarning(file, pointer,
                    QStringLiteral("a manifest of kind %1, not a benchmark run: nothing to list")
                        .arg(QString::fromStdString(kind))));
                return;
            }
        }
        if (document.is_object() && tooLarge(document, file, pointer, limits, result.diagnostics))
            return;
        if (RunPtr r = runFromDocument(document, file, pointer, result.diagnostics))
            result.runs.append(std::move(r));
    };
    if (value.is_array()) {
        if (value.empty()) {
            result.diagnostics.append(makeError(file, {}, QStringLiteral("an empty list holds no runs")));
            return;
        }
        if (qint64(value.size()) > limits.maxDocuments) {
            result.diagnostics.append(makeError(file, {},
                QStringLiteral("%1 documents in one list is more than the limit %2")
                    .arg(value.size())
                    .arg(limits.maxDocuments)));
            return;
        }
        for (std::size_t i = 0; i < value.size(); ++i)
            one(value[i], index({}, i));
        return;
    }
    one(value, {});
}

void parseYamlText(
    const char* begin, const char* end, const QString& file, const ParseLimits& limits, ParseResult& result)
{
    if (end - begin > limits.maxYamlBytes) {
        result.diagnostics.append(makeError(file, {},
            QStringLiteral("the YAML file is %1 bytes, more than the limit of %2")
                .arg(end - begin)
                .arg(limits.maxYamlBytes)));
        return;
    }
    YamlLimits yaml;
    yaml.maxDepth = limits.maxDepth;
    yaml.maxAliases = limits.maxYamlAliases;
    const YamlReadResult read = readYaml(begin, end, yaml);
    if (!read.ok) {
        Diagnostic d = makeError(file, {}, read.error);
        d.line = read.line;
        d.column = read.column;
        result.diagnostics.append(d);
        return;
    }
    readManifestValue(read.value, file, limits, result);
}

} // namespace kix
