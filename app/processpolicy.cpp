// SPDX-License-Identifier: Apache-2.0
#include "app/processpolicy.h"

#include "model/read/mappedfile.h"

#include <cstdlib>
#include <mutex>

#include <signal.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace kix {

namespace {

struct sigaction g_previous
{
};

// A fault in a file the loader mapped reads as zeros from there on; any other SIGBUS goes to the handler there was
// before, or gets the default action when the faulting access runs again.
void onSigbus(int signal, siginfo_t* info, void* context)
{
    if (recoverMappedFault(info->si_addr))
        return;
    if (g_previous.sa_flags & SA_SIGINFO) {
        if (g_previous.sa_sigaction) {
            g_previous.sa_sigaction(signal, info, context);
            return;
        }
    } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(signal);
        return;
    }
    struct sigaction fallback
    {
    };
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    ::sigaction(SIGBUS, &fallback, nullptr);
}

// glibc trims a thread's heap whenever its top is free and grows it again for the next file the loader reads (an
// mprotect per file), and maps every block over its sliding mmap threshold (128 KiB at first) anew: the raster
// engine's buffers, each time the window paints a chart. Freed memory kept for reuse instead; the peak is set by
// the runs that are kept, not by this. Setting the trim threshold fixes the mmap threshold too, so it is set to
// the most the sliding one reaches.
void tuneAllocator()
{
#ifdef __GLIBC__
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
}

} // namespace

void installMappedFaultHandler()
{
    struct sigaction current
    {
    };
    if (::sigaction(SIGBUS, nullptr, &current) == 0 && (current.sa_flags & SA_SIGINFO)
        && current.sa_sigaction == onSigbus) {
        allowMappedReads(); // ours already
        return;
    }
    struct sigaction action
    {
    };
    action.sa_sigaction = onSigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    if (::sigaction(SIGBUS, &action, &g_previous) == 0)
        allowMappedReads();
}

void applyProcessPolicy()
{
    static std::once_flag once;
    std::call_once(once, []() {
        if (!std::getenv("KIX_DEFAULT_ALLOCATOR")) // glibc's defaults, for docs/benchmarks.md's comparison
            tuneAllocator();
        installMappedFaultHandler();
    });
}

} // namespace kix
