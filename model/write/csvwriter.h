// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace kix {

// RFC 4180 output, the counterpart of CsvReader: a field is quoted when it holds a comma, a quote or a line break,
// with its quotes doubled; UTF-8. Every CSV kix writes (runs, comparisons) goes through these.
QByteArray csvField(const QString& field);
// The fields joined by commas, ended by "\n".
QByteArray csvLine(const QStringList& fields);

} // namespace kix
