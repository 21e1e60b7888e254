// SPDX-License-Identifier: Apache-2.0
#pragma once
// nlohmann/json holds text as UTF-8 std::string, Qt as UTF-16 QString: the one conversion at that edge for the
// report and document writers.

#include <QString>

#include <string>

namespace kix {

inline std::string utf8(const QString& s)
{
    return s.toStdString();
}

} // namespace kix
