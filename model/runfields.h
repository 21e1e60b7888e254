// SPDX-License-Identifier: Apache-2.0
#pragma once
// The text fields of a run: workload slugs, times, digests, units.

#include "model/run.h"

#include <QDateTime>
#include <QString>
#include <QVector>

#include <string_view>

namespace kix {

// "batch128-channels2048-channels_per_group4-hidden512-fp32" -> params and dtype. Generic for other kernels:
// each '-' separated part is a key followed by its value ("seqlen1024"), a known dtype, or a bare value.
void parseWorkloadSlug(const QString& slug, QVector<WorkloadParam>& params, QString& dtype);

// Sets run.workload and run.dtype from run.workloadSlug (whose UTF-8 is `slug`), parsed once per thread: slugs
// repeat across runs.
void setWorkload(std::string_view slug, Run& run);

// An ISO-8601 time in UTC ("2026-02-28T00:23:31.000Z" without QDateTime's general parser); invalid if it is not one.
QDateTime parseTime(std::string_view text);

// A latency in `unit` (ns, us, µs, ms, s) in ns; *known is false for another unit.
double toNs(double value, const QString& unit, bool* known);

// A kernelindex duration string (spec §9.2): digits, an optional fraction, one optional space and ns, us, µs, ms
// or s ("8.1 us" -> 8100). False for anything else, and for a value that is not a whole number of ns.
bool parseDuration(std::string_view text, double* ns);

// "NVIDIA B200" -> "nvidia-b200": ASCII letters and digits in lower case, each run of anything else one '-', none
// at either end (what a kernelindex name may hold). The one slug of kix: the names importers write and the GPU slug
// of every run, however it was read, come from here.
std::string slugify(std::string_view text);
QString slugify(const QString& text);

// "sha256:" and 64 lower-case hex digits
bool isDigest(const QString& digest);

} // namespace kix
