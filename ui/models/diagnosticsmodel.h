// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/diagnostic.h"

#include <QAbstractTableModel>

namespace kix {

// The issues found while loading, one row each, appended as loads finish.
class DiagnosticsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { SeverityColumn, FileColumn, LocationColumn, MessageColumn, ColumnCount };

    explicit DiagnosticsModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void append(const Diagnostics& diagnostics);
    void clear();
    const Diagnostics& diagnostics() const { return m_diagnostics; }
    int errorCount() const { return m_errors; }
    int warningCount() const { return int(m_diagnostics.size()) - m_errors; }

private:
    Diagnostics m_diagnostics;
    int m_errors = 0;
};

} // namespace kix
