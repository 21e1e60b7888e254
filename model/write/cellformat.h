// SPDX-License-Identifier: Apache-2.0
#pragma once
// The text of a number or a time in a table cell, written into a caller's buffer without a QString: `kix list`
// writes two of each per run, and Qt's formatting of them costs more than reading the run.

#include <QDateTime>

#include <string_view>

namespace kix {

// Where a cell's text is written; the view returned points into it and lives until the next call.
struct CellBuffer
{
    char bytes[48];
    QByteArray fallback; // the rare value written by Qt
};

// The same text as QString::number(v, 'g', 15) for a finite or infinite v; empty for NaN. A value whose 16th and
// 17th significant digits are "50" may be a tie, which Qt rounds up and the C++ library to even: Qt writes it.
std::string_view formatNumberCell(double v, CellBuffer& buffer);

// The same text as time.toString(Qt::ISODateWithMs) ("2026-02-28T00:23:31.000Z"); empty for an invalid time.
// A UTC time in years 1 to 9999 is written here; any other goes through Qt.
std::string_view formatTimeCell(const QDateTime& time, CellBuffer& buffer);

} // namespace kix
