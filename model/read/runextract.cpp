// SPDX-License-Identifier: Apache-2.0
// Builds the typed Run view of one kernelindex document and decides whether it is refused: the sections are read in
// the order their diagnostics come (extractsections.h, extractmeasurements.h, extractlinks.h).
#include "model/read/runextract.h"

#include "model/read/dialectkix010.h"
#include "model/read/extractlinks.h"
#include "model/read/extractmeasurements.h"
#include "model/read/extractsections.h"
#include "model/read/jsondom.h"

#include <nlohmann/json.hpp>

namespace kix {

using json = nlohmann::json;

namespace {

// The one place where a JSON document that is not kernelindex is refused, whatever it arrived in (a whole file,
// an array element, a JSON Lines line). Other tools' formats (nvbench, Google Benchmark, pytest-benchmark) never
// come here: the Frame stage hands their text to their importers (inputformats.h) first.
bool isKernelindexShaped(jsondom::Element document)
{
    if (document.type() != simdjson::dom::element_type::OBJECT)
        return false;
    for (const simdjson::dom::key_value_pair member : jsondom::asObject(document)) {
        if (member.key == "run" || member.key == "kind")
            return true;
    }
    return false;
}

void refuseForeignDocument(jsondom::Element document, const QString& file, const QString& pointer, Diagnostics& out)
{
    if (document.type() != simdjson::dom::element_type::OBJECT)
        out.append(makeError(file, pointer,
            QStringLiteral("not a kernelindex document: expected an object, found %1")
                .arg(jsondom::typeName(document))));
    else
        out.append(makeError(file, pointer + QStringLiteral("/kind"),
            QStringLiteral("not a kernelindex document: no \"run\" member and no kind BenchmarkRun (kix reads "
                           "kernelindex, nvbench, Google Benchmark and pytest-benchmark JSON, and Liger-Kernel CSV)")));
}

} // namespace

std::shared_ptr<Run> extractDocument(
    const jsondom::Element& document, const QString& file, const QString& pointer, Diagnostics& out, bool duplicateKeys)
{
    if (!isKernelindexShaped(document)) {
        refuseForeignDocument(document, file, pointer, out);
        return nullptr;
    }
    return extractRun(document, file, pointer, out, duplicateKeys);
}

std::shared_ptr<Run> extractRun(const jsondom::Element& documentElement, const QString& file, const QString& pointer,
    Diagnostics& out, bool duplicateKeys)
{
    extract::RunExtraction x(documentElement, file, pointer, out, duplicateKeys);
    if (!extract::readEnvelope(x))
        return nullptr;
    extract::readMetadata(x);
    extract::readSourceNative(x);
    extract::readTiming(x);
    extract::readMeasurements(x);
    if (!extract::chooseHeadline(x) || !extract::readResources(x))
        return nullptr;
    extract::verifyResources(x);
    extract::applyLinks(x);
    dialects::noteDialect(x);
    extract::readRawSamples(x);

    Run* run = x.run.get();
    // the lists were grown one by one: no slack kept for each of a million runs
    run->statistics.squeeze();
    run->measurements.squeeze();
    run->labels.squeeze();
    run->software.squeeze();
    run->workload.squeeze();
    run->finalize();
    return x.run;
}

RunPtr runFromDocument(const json& document, const QString& file, const QString& pointer, Diagnostics& out,
    const std::vector<double>& samplesNs)
{
    std::string text = document.dump(-1, ' ', false, json::error_handler_t::replace);
    jsondom::Element root;
    if (const auto error = jsondom::parse(text, false, 64, root)) {
        out.append(
            makeError(file, pointer, QStringLiteral("not read: ") + QLatin1String(simdjson::error_message(error))));
        return nullptr;
    }
    const qsizetype before = out.size();
    std::shared_ptr<Run> run = extractRun(root, file, pointer, out, false); // nlohmann's objects have unique keys
    // A document kix builds in memory now (an import, an engine run) is not a file that a dialect's writer wrote:
    // no note.
    dialects::dropNotes(out, before);
    if (run) {
        run->raw = RawText(std::move(text));
        if (run->samples.empty())
            run->samples = samplesNs;
    }
    return run;
}

} // namespace kix
