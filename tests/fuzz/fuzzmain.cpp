// SPDX-License-Identifier: Apache-2.0
// One libFuzzer executable per target: KIX_FUZZ_TARGET names the harness function (see fuzzharness.h).
#include "fuzzharness.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const QString problem = kix::fuzz::KIX_FUZZ_TARGET(data, size);
    if (!problem.isEmpty()) {
        std::fprintf(stderr, "kix fuzz: %s\n", problem.toLocal8Bit().constData());
        std::abort();
    }
    return 0;
}
