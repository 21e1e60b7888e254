// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/overviewreport.h"

#include "model/write/csvwriter.h"
#include "model/write/texttable.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace kix {

namespace {

QString name(const QString& value, const char* none)
{
    return value.isEmpty() ? QString::fromLatin1(none) : value;
}

using Json = nlohmann::json;

Json counts(const OverviewCell& cell, const QString& filter)
{
    Json o = Json::object();
    o["runs"] = cell.runs;
    o["implementations"] = cell.implementations;
    o["failed"] = cell.failed;
    o["filter"] = filter.isEmpty() ? Json() : Json(filter.toStdString());
    return o;
}

} // namespace

QByteArray overviewToTable(const OverviewData& data)
{
    QVector<QStringList> rows;
    QStringList header { QStringLiteral("kernel"), QStringLiteral("all") };
    for (const QString& gpu : data.gpus)
        header << name(gpu, "(no GPU)");
    rows << header;
    QStringList all { QStringLiteral("all"), QString::number(data.total.runs) };
    for (const OverviewCell& c : data.gpuTotals)
        all << QString::number(c.runs);
    rows << all;
    for (int k = 0; k < data.kernels.size(); ++k) {
        QStringList row { name(data.kernels[k], "(no kernel)"), QString::number(data.kernelTotals[k].runs) };
        for (int g = 0; g < data.gpus.size(); ++g) {
            const int runs = data.cell(k, g).runs;
            row << (runs == 0 ? QStringLiteral("-") : QString::number(runs));
        }
        rows << row;
    }
    QVector<int> counts; // every column but the kernel's
    for (int c = 1; c < header.size(); ++c)
        counts << c;
    return QStringLiteral("%1 kernel(s) × %2 GPU(s), %3 run(s), %4 failed: runs per kernel and GPU\n")
               .arg(data.kernels.size())
               .arg(data.gpus.size())
               .arg(data.total.runs)
               .arg(data.total.failed)
               .toUtf8()
        + alignedRows(rows, {}, counts);
}

QByteArray overviewToCsv(const OverviewData& data)
{
    QByteArray out = csvLine({ QStringLiteral("kernel"), QStringLiteral("gpu"), QStringLiteral("runs"),
        QStringLiteral("implementations"), QStringLiteral("failed"), QStringLiteral("filter") });
    for (int k = 0; k < data.kernels.size(); ++k) {
        for (int g = 0; g < data.gpus.size(); ++g) {
            const OverviewCell& c = data.cell(k, g);
            if (c.runs == 0)
                continue;
            out += csvLine({ data.kernels[k], data.gpus[g], QString::number(c.runs), QString::number(c.implementations),
                QString::number(c.failed), data.cellClause(k, g) });
        }
    }
    return out;
}

QByteArray overviewToJson(const OverviewData& data)
{
    Json root = counts(data.total, {});
    root.erase("filter");
    Json gpus = Json::array();
    for (int g = 0; g < data.gpus.size(); ++g) {
        Json o = counts(data.gpuTotals[g], data.gpuClauses[g]);
        o["gpu"] = data.gpus[g].toStdString();
        gpus.push_back(std::move(o));
    }
    Json kernels = Json::array();
    for (int k = 0; k < data.kernels.size(); ++k) {
        Json o = counts(data.kernelTotals[k], data.kernelClauses[k]);
        o["kernel"] = data.kernels[k].toStdString();
        Json cells = Json::array();
        for (int g = 0; g < data.gpus.size(); ++g) {
            if (data.cell(k, g).runs == 0)
                continue;
            Json c = counts(data.cell(k, g), data.cellClause(k, g));
            c["gpu"] = data.gpus[g].toStdString();
            cells.push_back(std::move(c));
        }
        o["cells"] = std::move(cells);
        kernels.push_back(std::move(o));
    }
    root["gpus"] = std::move(gpus);
    root["kernels"] = std::move(kernels);
    return QByteArray::fromStdString(root.dump(2, ' ', false, Json::error_handler_t::replace)) + '\n';
}

} // namespace kix
