// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QSize>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLineEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace kix {

// Where and how to export a chart: the file (its extension picks PNG, SVG or PDF), the size in pixels, the PNG's
// DPI, light or dark colours. Remembers the last choices.
class ChartExportDialog : public QDialog
{
    Q_OBJECT
public:
    ChartExportDialog(const QString& baseName, bool dark, QWidget* parent = nullptr);

    QString path() const;
    QSize pixelSize() const;
    double dpi() const;
    bool dark() const;

    void accept() override;

private:
    void browse();

    QLineEdit* m_path;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QSpinBox* m_dpi;
    QCheckBox* m_dark;
};

} // namespace kix
