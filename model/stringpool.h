// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model: the strings that repeat across runs (kernel, provider, GPU, protocol notes, digests,
// labels ...) are made into QStrings once per loading thread and shared by every run that holds them.

#include <QString>

#include <string_view>

namespace kix {

// The shared QString for these UTF-8 bytes (made on first use). Strings longer than 2 KiB are not pooled. Each
// thread keeps its own pool, so no lock is taken; copies share memory across threads like any QString.
QString internUtf8(std::string_view utf8);

} // namespace kix
