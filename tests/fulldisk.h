// SPDX-License-Identifier: Apache-2.0
#pragma once
// A full disk for one scope, for tests: RLIMIT_FSIZE caps how large this process may make any file, so a write
// past `bytes` fails with EFBIG ("File too large") just as it would with ENOSPC on a full file system (SIGXFSZ
// is ignored meanwhile, so the write returns the error instead of killing the process). Works as root, needs
// no mount. Restores both on destruction.

#include <csignal>

#include <sys/resource.h>

namespace kix::test {

class FullDisk
{
public:
    explicit FullDisk(rlim_t bytes)
    {
        m_ok = ::getrlimit(RLIMIT_FSIZE, &m_old) == 0;
        m_oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit = m_old;
        limit.rlim_cur = bytes;
        m_ok = m_ok && ::setrlimit(RLIMIT_FSIZE, &limit) == 0;
    }
    ~FullDisk()
    {
        ::setrlimit(RLIMIT_FSIZE, &m_old);
        std::signal(SIGXFSZ, m_oldHandler);
    }
    FullDisk(const FullDisk&) = delete;
    FullDisk& operator=(const FullDisk&) = delete;
    bool ok() const { return m_ok; }

private:
    rlimit m_old {};
    void (*m_oldHandler)(int) = SIG_DFL;
    bool m_ok = false;
};

} // namespace kix::test
