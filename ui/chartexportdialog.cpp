// SPDX-License-Identifier: Apache-2.0
#include "ui/chartexportdialog.h"

#include "ui/charts/chartexporter.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

namespace kix {

ChartExportDialog::ChartExportDialog(const QString& baseName, bool dark, QWidget* parent)
    : QDialog(parent)
    , m_path(new QLineEdit(this))
    , m_width(new QSpinBox(this))
    , m_height(new QSpinBox(this))
    , m_dpi(new QSpinBox(this))
    , m_dark(new QCheckBox(QStringLiteral("Dark colours"), this))
{
    setWindowTitle(QStringLiteral("Export Chart"));
    QSettings settings;
    const QString folder = settings.value(QStringLiteral("files/lastExportFolder"), QDir::homePath()).toString();
    const QString suffix = settings.value(QStringLiteral("chartExport/suffix"), QStringLiteral("png")).toString();
    m_path->setText(QDir(folder).filePath(baseName + QLatin1Char('.') + suffix));
    for (QSpinBox* box : { m_width, m_height })
        box->setRange(16, 20000);
    m_width->setValue(settings.value(QStringLiteral("chartExport/width"), 1200).toInt());
    m_height->setValue(settings.value(QStringLiteral("chartExport/height"), 800).toInt());
    m_dpi->setRange(24, 2400);
    m_dpi->setValue(settings.value(QStringLiteral("chartExport/dpi"), 96).toInt());
    m_dpi->setToolTip(QStringLiteral("PNG only: at 300 DPI the text is sized for print at the given pixel size"));
    m_dark->setChecked(dark);

    auto* browse = new QPushButton(QStringLiteral("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, &ChartExportDialog::browse);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_width);
    sizeRow->addWidget(new QLabel(QStringLiteral("×"), this));
    sizeRow->addWidget(m_height);
    sizeRow->addWidget(new QLabel(QStringLiteral("pixels"), this));
    sizeRow->addStretch(1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &ChartExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ChartExportDialog::reject);

    auto* form = new QFormLayout(this);
    form->addRow(QStringLiteral("File (.png, .svg, .pdf):"), pathRow);
    form->addRow(QStringLiteral("Size:"), sizeRow);
    form->addRow(QStringLiteral("DPI:"), m_dpi);
    form->addRow(QString(), m_dark);
    form->addRow(buttons);
}

QString ChartExportDialog::path() const
{
    return m_path->text().trimmed();
}

QSize ChartExportDialog::pixelSize() const
{
    return QSize(m_width->value(), m_height->value());
}

double ChartExportDialog::dpi() const
{
    return m_dpi->value();
}

bool ChartExportDialog::dark() const
{
    return m_dark->isChecked();
}

void ChartExportDialog::browse()
{
    const QString chosen = QFileDialog::getSaveFileName(this, QStringLiteral("Export Chart"), path(),
        QStringLiteral("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (!chosen.isEmpty())
        m_path->setText(chosen);
}

void ChartExportDialog::accept()
{
    if (!ChartExporter::formatForPath(path())) {
        QMessageBox::warning(this, windowTitle(), QStringLiteral("The file name must end in .png, .svg or .pdf."));
        return;
    }
    QSettings settings;
    const QFileInfo info(path());
    settings.setValue(QStringLiteral("files/lastExportFolder"), info.absolutePath());
    settings.setValue(QStringLiteral("chartExport/suffix"), info.suffix().toLower());
    settings.setValue(QStringLiteral("chartExport/width"), m_width->value());
    settings.setValue(QStringLiteral("chartExport/height"), m_height->value());
    settings.setValue(QStringLiteral("chartExport/dpi"), m_dpi->value());
    QDialog::accept();
}

} // namespace kix
