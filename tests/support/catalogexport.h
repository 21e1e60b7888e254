// SPDX-License-Identifier: Apache-2.0
// The format's public catalog export, for the tests that pin kix to it: where it is (under KIX_SHARED_DIR), and
// its lines read with nlohmann rather than kix's own reader.
#pragma once

#include "model/read/zstdstream.h"

#include <QDir>
#include <QString>

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace kixtest {

// The catalog-*.jsonl.zst under $KIX_SHARED_DIR/data/kernelindex/catalog; empty when there is none.
inline QString sharedCatalogPath()
{
    if (qEnvironmentVariableIsEmpty("KIX_SHARED_DIR"))
        return {};
    const QString dir = qEnvironmentVariable("KIX_SHARED_DIR") + QStringLiteral("/data/kernelindex/catalog");
    const QStringList found = QDir(dir).entryList({ QStringLiteral("catalog-*.jsonl.zst") }, QDir::Files);
    return found.isEmpty() ? QString() : dir + QLatin1Char('/') + found.front();
}

// Calls row(table, row) for every line {"table": ..., "row": {...}} of the compressed export at `path`.
template<typename Row>
void forEachCatalogRow(const QString& path, Row&& row)
{
    std::string pending;
    auto line = [&](std::string_view text) {
        const nlohmann::json parsed = nlohmann::json::parse(text);
        row(parsed.value("table", std::string()), parsed["row"]);
    };
    kix::decompressZstdFile(path, kix::ZstdLimits(), [&](std::string_view piece) {
        pending.append(piece);
        std::size_t start = 0;
        for (std::size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
            if (nl > start)
                line(std::string_view(pending).substr(start, nl - start));
        }
        pending.erase(0, start);
        return true;
    });
    if (!pending.empty())
        line(pending);
}

} // namespace kixtest
