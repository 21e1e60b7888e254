// SPDX-License-Identifier: Apache-2.0
#pragma once
// A submission bundle of runs (the format's registry/submissions structure): top-level lists projects,
// operations, workloads, implementations ({projectSlug, manifest}) and runs ({run, protocol, environment}), each
// linked resource once. Only what the format accepts is written: a run whose document deviates from v1alpha1
// (model/format/strictcheck.h) is left out and named.

#include "model/run.h"

#include <nlohmann/json.hpp>

#include <QString>
#include <QStringList>

namespace kix {

struct BundleResult
{
    nlohmann::json bundle;
    int runs = 0; // written
    QStringList leftOut; // "FILE POINTER: why", one per run not written
};

BundleResult buildBundle(const RunList& runs);

// Writes buildBundle(runs) to `path` atomically: JSON (2-space indent); a .yaml or .yml path gets the same JSON
// text, which is YAML 1.2 as it stands. False and `error` when it could not be written.
bool writeBundle(const RunList& runs, const QString& path, BundleResult* result, QString* error);

} // namespace kix
