// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the Frame stage of the read path, documentparser.h): one file's text, recognised by content
// and suffix and handed to the reader of its format (a kernelindex document or array, JSON Lines, a bundle, YAML, a
// catalog, other tools' formats through the InputFormat hook), which yields its documents to runextract.

#include "model/read/readlimits.h"
#include "model/read/textsink.h"

#include <QString>

#include <memory>
#include <string_view>

#include <sys/stat.h>

namespace kix {
class LineRouter;
}

namespace kix::parsing {

// The Frame stage's entry: what a source hands on (TextSink) becomes documents, read into `result`.
class Frame final : public TextSink
{
public:
    Frame(const ParseLimits& limits, ParseResult& result);
    ~Frame() override;

    void whole(const QString& file, std::string_view input, std::string_view text, bool padded,
        const struct stat* onDisk) override;
    bool piece(const QString& file, std::string_view piece) override;
    void endOfPieces(const QString& file) override;
    bool takesWindows(const char* begin, const char* end) const override;
    void window(const QString& file, const char* begin, const char* end, int firstLine, const LineOrigin& origin,
        bool padded, const std::vector<std::size_t>& recordEnds, bool multiLine, ParseResult& part) const override;

private:
    LineRouter& router(const QString& file);

    const ParseLimits& m_limits;
    ParseResult& m_result;
    std::unique_ptr<LineRouter> m_router; // the pieces of a decompressed text
};

} // namespace kix::parsing
