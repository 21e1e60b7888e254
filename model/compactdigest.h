// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model: the compact forms of a run's identity and digests (RunIdentity and CompactDigest, declared
// in model/run.h, are implemented in compactdigest.cpp).

#include "model/run.h"

#include <QtGlobal>

namespace kix::compactdigest {

constexpr char16_t kSha256Prefix[] = u"sha256:";
constexpr qsizetype kSha256PrefixSize = 7;
constexpr qsizetype kSha256TextSize = kSha256PrefixSize + 64;

// 0-15 for a lower-case hex digit, else -1.
int lowerHexValue(char16_t c);

} // namespace kix::compactdigest
