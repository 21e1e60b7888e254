// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model: a file mapped read-only for one streamed read (model/read/jsonlstream.cpp). A mapped file
// that shrinks while it is read raises SIGBUS on the pages past its new end; here such pages read as zeros instead
// (the lines there are then refused as broken JSON, named by their file and line) and shrank() says it happened.

#include <atomic>
#include <cstddef>

namespace kix {

class MappedFile
{
public:
    // Maps `size` bytes of the open file `fd`; valid() is false when it cannot (then read it instead).
    MappedFile(int fd, std::size_t size);
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();

    bool valid() const { return m_data != nullptr; }
    const char* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    // Whether pages past the end of the file (it shrank, or could not be read) were read as zeros.
    bool shrank() const;

private:
    char* m_data = nullptr;
    std::size_t m_size = 0;
    int m_slot = -1;
};

} // namespace kix
