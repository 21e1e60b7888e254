// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model: a file mapped read-only for one streamed read (model/read/jsonlstream.cpp). A mapped file
// that shrinks while it is read raises SIGBUS on the pages past its new end. The library installs no signal
// handler: a process that wants mapped reads installs one that calls recoverMappedFault() first, then calls
// allowMappedReads() (kix's executables do, app/processpolicy.cpp). There such pages read as zeros (the lines there
// are then refused as broken JSON, named by their file and line) and shrank() says it happened. Until then no file
// is mapped: valid() is false and the reader reads with read().

#include <atomic>
#include <cstddef>

namespace kix {

// Called once a SIGBUS handler that calls recoverMappedFault() is installed: from then on files are mapped.
void allowMappedReads();
// For that handler (async-signal-safe): a fault in a mapped file's range is answered with zero pages from the
// faulting one to the mapping's end, and true is returned; false for any other address (the handler then passes
// the signal on).
bool recoverMappedFault(void* address) noexcept;

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
