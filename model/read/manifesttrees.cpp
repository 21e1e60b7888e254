// SPDX-License-Identifier: Apache-2.0
#include "model/read/manifesttrees.h"

#include "model/read/catalogreader.h"
#include "model/read/jsondom.h"
#include "model/read/jsonreader.h"
#include "model/read/linesplitter.h"
#include "model/read/yamlreader.h"
#include "model/read/zstdstream.h"

#include <QFile>

namespace kix {

using json = nlohmann::json;

namespace {

QString suffixOf(const QString& path)
{
    const qsizetype dot = path.lastIndexOf(QLatin1Char('.'));
    if (dot < 0 || path.indexOf(QLatin1Char('/'), dot) >= 0)
        return {};
    return path.mid(dot + 1).toLower();
}

bool blank(std::string_view s)
{
    return s.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// One JSON text: duplicate keys reported, then the value as nlohmann/json.
bool jsonTree(std::string_view text, const QString& file, const QString& pointer, int line, const ParseLimits& limits,
    json& value, Diagnostics& out)
{
    jsondom::Element root;
    if (const auto code = jsondom::parse(text, false, limits.maxDepth, root)) {
        const JsonReadResult read = readJson(text.data(), text.data() + text.size(), limits.maxDepth);
        Diagnostic d = makeError(file, pointer,
            read.ok ? QStringLiteral("not read: ") + QLatin1String(simdjson::error_message(code)) : read.error);
        if (!read.ok && read.line > 0) {
            d.line = read.line + line;
            d.column = read.column;
        }
        out.append(d);
        return false;
    }
    jsondom::reportDuplicateKeys(root, file, pointer, out);
    value = json::parse(simdjson::minify(root), nullptr, false);
    return !value.is_discarded();
}

// One JSON Lines line: a catalog row gives its manifest, any other line itself.
void lineTree(std::string_view text, int index, const QString& file, const ParseLimits& limits,
    const TreeVisitor& visit, Diagnostics& out)
{
    if (blank(text))
        return;
    const QString pointer = QLatin1Char('/') + QString::number(index);
    json value;
    if (!jsonTree(text, file, pointer, index, limits, value, out))
        return;
    if (value.is_object() && value.size() == 2 && value.contains("table") && value.contains("row")) {
        const json& row = value["row"];
        if (row.is_object() && row.contains("manifest"))
            visit(row["manifest"], pointer + QStringLiteral("/row/manifest"));
        return;
    }
    visit(value, pointer);
}

bool streamLines(const QString& file, const ParseLimits& limits, const TreeVisitor& visit, Diagnostics& out,
    const std::function<ZstdResult(const ZstdSink&)>& decompress)
{
    constexpr qint64 kMaxLine = qint64(4) << 20;
    LineSplitter lines(
        kMaxLine,
        [&](std::string_view text, int index) {
            lineTree(text, index, file, limits, visit, out);
            return !(limits.cancel && limits.cancel->load());
        },
        [&](int index) {
            out.append(makeError(file, QLatin1Char('/') + QString::number(index),
                QStringLiteral("the line is longer than the limit of %1 bytes: not read").arg(kMaxLine)));
            return true;
        });
    const ZstdResult z = decompress([&](std::string_view piece) { return lines.feed(piece); });
    if (!z.ok && !z.stopped)
        out.append(makeError(file, {}, z.error));
    lines.finish();
    return z.ok;
}

} // namespace

bool readManifestTrees(const QString& path, const ParseLimits& limits, const TreeVisitor& visit, Diagnostics& out)
{
    const QString suffix = suffixOf(path);
    if (suffix == QLatin1String("zst"))
        return streamLines(path, limits, visit, out, [&](const ZstdSink& sink) {
            return decompressZstdFile(path, zstdLimits(limits), sink, limits.fileProgress);
        });
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        out.append(makeError(path, {}, QStringLiteral("cannot open: ") + f.errorString()));
        return false;
    }
    if (f.size() > limits.maxFileBytes) {
        out.append(makeError(
            path, {}, QStringLiteral("the file is larger than the limit of %1 bytes").arg(limits.maxFileBytes)));
        return false;
    }
    const QByteArray bytes = f.readAll();
    const char* begin = bytes.constData();
    const char* end = begin + bytes.size();
    if (end - begin >= 3 && std::string_view(begin, 3) == "\xEF\xBB\xBF")
        begin += 3;
    if (isZstdFrame(begin, end))
        return streamLines(path, limits, visit, out, [&](const ZstdSink& sink) {
            return decompressZstdBytes(std::string_view(begin, std::size_t(end - begin)), zstdLimits(limits), sink);
        });
    if (suffix == QLatin1String("csv")) {
        out.append(makeWarning(path, {}, QStringLiteral("a CSV file is not a kernelindex document: not checked")));
        return true;
    }
    if (suffix == QLatin1String("yaml") || suffix == QLatin1String("yml")) {
        if (end - begin > limits.maxYamlBytes) {
            out.append(makeError(path, {},
                QStringLiteral("the YAML file is larger than the limit of %1 bytes").arg(limits.maxYamlBytes)));
            return false;
        }
        YamlLimits yaml;
        yaml.maxDepth = limits.maxDepth;
        yaml.maxAliases = limits.maxYamlAliases;
        const YamlReadResult read = readYaml(begin, end, yaml);
        if (!read.ok) {
            Diagnostic d = makeError(path, {}, read.error);
            d.line = read.line;
            d.column = read.column;
            out.append(d);
            return false;
        }
        visit(read.value, {});
        return true;
    }
    if (suffix == QLatin1String("jsonl") || suffix == QLatin1String("ndjson") || looksLikeCatalog(begin, end)) {
        int index = 0;
        for (const char* p = begin; p < end; ++index) {
            const char* nl = static_cast<const char*>(memchr(p, '\n', std::size_t(end - p)));
            const char* stop = nl ? nl : end;
            lineTree(std::string_view(p, std::size_t(stop - p)), index, path, limits, visit, out);
            p = stop + 1;
        }
        return true;
    }
    json value;
    if (!jsonTree(std::string_view(begin, std::size_t(end - begin)), path, {}, 0, limits, value, out))
        return false;
    visit(value, {});
    return true;
}

} // namespace kix
