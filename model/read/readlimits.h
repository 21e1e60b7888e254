// SPDX-License-Identifier: Apache-2.0
#pragma once
// What every stage of the read path (model/read: Source -> Frame -> Extract) is handed: the limits of one read and
// the result it appends to, and where a streamed line came from. The stages include this, not the loader's entry
// (documentparser.h), so that calls run one way: from the file's bytes to the runs.

#include "model/diagnostic.h"
#include "model/run.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace kix {

struct ParseResult
{
    RunList runs;
    Diagnostics diagnostics;
    bool hasErrors() const;
};

// The folder that files are opened relative to (openat): a loader that reads many files of one folder, one after
// another, has the kernel look the folder's path up once, not once a file. One per thread (the loader keeps one a
// batch of files); the folder stays open while it lasts.
class FolderHandle
{
public:
    FolderHandle() = default;
    FolderHandle(const FolderHandle&) = delete;
    FolderHandle& operator=(const FolderHandle&) = delete;
    ~FolderHandle();

    // open(2) of `path` (its local 8-bit name), relative to its folder when that can be opened.
    int open(const QByteArray& path, int flags);

private:
    QByteArray m_folder;
    int m_fd = -1;
};

// Limits that keep hostile input from exhausting memory or the stack.
struct ParseLimits
{
    qint64 maxFileBytes = qint64(1) << 30; // 1 GiB; a JSON Lines file on disk is streamed, any size (not this limit)
    // A JSON Lines file on disk larger than this is streamed in windows of this size: its lines are parsed a
    // window at a time, on all cores, and their text is not kept (each run reads its line back when asked).
    qint64 streamWindowBytes = qint64(4) << 20;
    qint64 maxLineBytes = qint64(1) << 30; // one line of a streamed JSON Lines file
    int maxDepth = 64;
    qint64 maxDocuments = 5'000'000;
    // The format's own parsing rules (§9.2): one manifest (YAML or JSON, in a bundle or a catalog row) is at most
    // 1 MiB; a YAML document resolves at most 100 aliases.
    qint64 maxManifestBytes = qint64(1) << 20;
    int maxYamlAliases = 100;
    qint64 maxYamlBytes = qint64(64) << 20; // a YAML file (a bundle holds many manifests)
    // Compressed input (.zst): the decompressed bytes of one file, and their ratio to the compressed bytes
    // (checked past 16 MiB), past which it is refused as a decompression bomb.
    qint64 maxDecompressedBytes = qint64(1) << 30;
    qint64 maxDecompressionRatio = 1000;
    // Not limits but carried with them into one long read (a streamed catalog export): a flag that stops it
    // (the loader's cancel) and how far it is (bytes of the file read, bytes in all).
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(qint64 done, qint64 total)> fileProgress;
    // Nor this: where set, parseFileInto opens a plain file on disk relative to its folder through it.
    FolderHandle* folder = nullptr;
};

// Where the lines of a streamed file are (parsing::parseJsonLinesRange): their runs keep no text, only its place (the
// line is minified when read back, so a file's formatting costs no memory).
struct LineOrigin
{
    std::shared_ptr<const RawSource> source;
    qint64 fileOffset = 0; // of `begin`
    // The bytes are a mapping of the file, which another process may change while they are read: each line is
    // parsed from a copy (simdjson reads its input twice and must find it unchanged).
    bool mapped = false;
};

namespace parsing {

// Only spaces, tabs and line ends in [begin, end).
inline bool isBlank(const char* begin, const char* end)
{
    for (const char* p = begin; p < end; ++p) {
        if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
            return false;
    }
    return true;
}

// Whether the path's suffix is `suffix`, in any case (no QString made: asked of every file the loader reads).
inline bool hasSuffix(const QString& path, QLatin1String suffix)
{
    const qsizetype dot = path.lastIndexOf(QLatin1Char('.'));
    return dot >= 0 && path.size() - dot - 1 == suffix.size()
        && QStringView(path).mid(dot + 1).compare(suffix, Qt::CaseInsensitive) == 0;
}

} // namespace parsing

} // namespace kix
