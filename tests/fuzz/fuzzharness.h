// SPDX-License-Identifier: Apache-2.0
#pragma once
// The fuzz targets' bodies, shared by the libFuzzer executables (tests/fuzz, `cmake --preset fuzz`) and by
// tst_fuzzregressions, which replays every input in tests/data/fuzz/<target>/ through the same code in the
// ordinary and sanitizer builds. Each returns an empty string when the input was handled as it must be, or
// what went wrong (the fuzzer aborts on it, the test fails with it). Crashes are crashes in both.
// Only the readers' public API is used (documentparser.h, catalogreader.h, yamlreader.h, bundlereader.h,
// ligercsv.h, runwriter.h, bundlewriter.h, runfilter.h, strictcheck.h), and for the parser target runextract.h.

#include <QString>
#include <QStringList>

#include <cstddef>
#include <cstdint>

namespace kix::fuzz {

// Any bytes, read as a .json file and as a .jsonl file: runs or diagnostics, every diagnostic naming the file.
QString document(const uint8_t* data, std::size_t size);
// Any bytes as Liger-Kernel's benchmark CSV: the importer and the runs made from its documents.
QString ligerCsv(const uint8_t* data, std::size_t size);
// Any text as a workload slug: every parameter has a key, numbers are finite.
QString workloadSlug(const uint8_t* data, std::size_t size);
// Any text in the filter box: an empty filter matches every run, adding a term never matches more.
QString filter(const uint8_t* data, std::size_t size);
// Whatever loads exports to JSON and to JSON Lines that load back to the same runs.
QString roundTrip(const uint8_t* data, std::size_t size);
// Any bytes as one kernelindex document, straight into the run extractor (no file, format or error-locating
// layers): the fast way into the parser.
QString parser(const uint8_t* data, std::size_t size);
// Any bytes as a catalog export: the same runs and documents from the text and from its Zstandard compression;
// the bytes themselves as Zstandard data (the decoder, bounded).
QString catalog(const uint8_t* data, std::size_t size);
// Any bytes as YAML: refused with a reason, or a JSON value that survives a JSON round trip; then as a .yaml file.
QString yaml(const uint8_t* data, std::size_t size);
// Any JSON as a submission bundle: its runs, the bundle kix writes of them (which must be v1alpha1 and load back to
// as many runs), and validate --strict's rules on the input.
QString bundle(const uint8_t* data, std::size_t size);

using Target = QString (*)(const uint8_t*, std::size_t);
struct NamedTarget
{
    const char* name;
    Target target;
};
// Every target, by the name of its executable (fuzz_<name>) and its fixture folder (tests/data/fuzz/<name>).
const NamedTarget* targets(std::size_t* count);

} // namespace kix::fuzz
