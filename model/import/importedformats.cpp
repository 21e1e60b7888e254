// SPDX-License-Identifier: Apache-2.0
#include "model/import/importedformats.h"

#include "model/import/interop.h"
#include "model/import/ligercsv.h"
#include "model/read/documentparser.h"
#include "model/read/runextract.h"

namespace kix {

namespace {

bool acceptsLigerCsv(const QString& suffix, const char* begin, const char* end)
{
    return suffix == QLatin1String("csv") || looksLikeLigerCsv(QByteArray::fromRawData(begin, qsizetype(end - begin)));
}

// One run per CSV row, each located by its row (pointer /rows/N) and its line in the file.
bool parseLigerCsv(const char* begin, const char* end, const QString& file, const ParseLimits&, ParseResult& result)
{
    LigerImport imported = importLigerCsv(QByteArray::fromRawData(begin, qsizetype(end - begin)), file);
    result.diagnostics += imported.diagnostics;
    result.runs.reserve(static_cast<int>(imported.documents.size()));
    for (std::size_t i = 0; i < imported.documents.size(); ++i) {
        const int row = i < imported.documentRows.size() ? imported.documentRows[i] : static_cast<int>(i);
        const QString pointer = QStringLiteral("/rows/") + QString::number(row);
        const int firstNew = result.diagnostics.size();
        if (RunPtr run = runFromDocument(imported.documents[i], file, pointer, result.diagnostics))
            result.runs.append(run);
        if (i < imported.documentLines.size()) {
            for (int d = firstNew; d < result.diagnostics.size(); ++d)
                result.diagnostics[d].line = imported.documentLines[i];
        }
    }
    return true;
}

bool acceptsForeignJson(const QString&, const char* begin, const char* end)
{
    return interop::mayBeForeign(begin, end);
}

bool parseForeignJson(
    const char* begin, const char* end, const QString& file, const ParseLimits& limits, ParseResult& result)
{
    return interop::parseForeign(begin, end, file, limits.maxDepth, result);
}

} // namespace

const std::vector<InputFormat>& importedFormats()
{
    static const std::vector<InputFormat> formats = {
        { InputFormat::Stage::BeforeJsonLines, acceptsLigerCsv, parseLigerCsv },
        { InputFormat::Stage::BeforeKernelindex, acceptsForeignJson, parseForeignJson },
    };
    return formats;
}

} // namespace kix
