// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/diagnostic.h"

#include <QByteArray>
#include <QString>

#include <nlohmann/json.hpp>

#include <vector>

namespace kix {

// Liger-Kernel's all_benchmark_data.csv turned into kernelindex documents ({run, protocol, environment}), one per
// row: speed rows become latency runs exactly as the seed shows; memory rows become runs of their own whose
// headline metric is "memory" (MB). Each document records its CSV line in `documentLines` (1-based).
struct LigerImport
{
    std::vector<nlohmann::json> documents;
    std::vector<int> documentLines;
    std::vector<int> documentRows; // 0-based data-row index, the N of the pointer /rows/N
    Diagnostics diagnostics;
};

bool looksLikeLigerCsv(const QByteArray& bytes);
LigerImport importLigerCsv(const QByteArray& bytes, const QString& file);

} // namespace kix
