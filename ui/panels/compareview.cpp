// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/compareview.h"

#include "model/jobs/pools.h"
#include "ui/models/rundiffmodel.h"

#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QStackedWidget>
#include <QTableView>
#include <QThreadPool>
#include <QToolButton>
#include <QVBoxLayout>

namespace kix {

namespace {

QString formatName(CompareView::Format format)
{
    switch (format) {
    case CompareView::Format::Csv:
        return QStringLiteral("CSV");
    case CompareView::Format::Json:
        return QStringLiteral("JSON");
    case CompareView::Format::Markdown:
        break;
    }
    return QStringLiteral("Markdown");
}

} // namespace

CompareView::CompareView(QWidget* parent)
    : QWidget(parent)
    , m_verdict(new QLabel(this))
    , m_showEqual(new QCheckBox(QStringLiteral("Show equal fields"), this))
    , m_copy(new QToolButton(this))
    , m_notes(new QLabel(this))
    , m_empty(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_table(new QTableView(this))
    , m_model(new RunDiffModel(this))
{
    setObjectName(QStringLiteral("compareView"));
    m_verdict->setObjectName(QStringLiteral("compareVerdict"));
    m_verdict->setTextFormat(Qt::RichText);
    m_verdict->setWordWrap(true);
    m_verdict->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_showEqual->setObjectName(QStringLiteral("compareShowEqual"));
    m_showEqual->setToolTip(QStringLiteral("List the fields every run has alike; unticked, each document's equal "
                                           "fields fold into one row"));
    m_copy->setObjectName(QStringLiteral("compareCopy"));
    m_copy->setText(QStringLiteral("Copy as"));
    m_copy->setToolTip(QStringLiteral("Copy the comparison as Markdown, CSV or JSON (as kix diff writes it); Export… "
                                      "above saves it to a file"));
    m_copy->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_copy);
    for (Format f : { Format::Markdown, Format::Csv, Format::Json }) {
        QAction* action = menu->addAction(formatName(f));
        action->setObjectName(QStringLiteral("compareCopy") + formatName(f));
        connect(action, &QAction::triggered, this, [this, f] { copy(f); });
    }
    m_copy->setMenu(menu);
    m_notes->setWordWrap(true);
    m_notes->setObjectName(QStringLiteral("compareNotes"));
    m_notes->hide();
    m_empty->setObjectName(QStringLiteral("compareMessage"));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setMargin(24);

    m_table->setModel(m_model);
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle); // digests and pointers differ at their ends as often as at the start
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setTextElideMode(Qt::ElideMiddle); // the run's number and digest stay readable
    m_table->horizontalHeader()->setMinimumSectionSize(60);

    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_verdict, 1);
    row->addWidget(m_showEqual);
    row->addWidget(m_copy);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_notes);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_table);
    layout->addWidget(m_stack, 1);

    connect(m_showEqual, &QCheckBox::toggled, this, [this](bool on) {
        m_model->setShowEqual(on);
        fitColumns();
    });
    setRuns({});
}

CompareView::~CompareView()
{
    m_diffs.waitForDone(); // no read outlives the view; its result is dropped with the watchers
}

void CompareView::setRuns(const RunList& runs)
{
    if (runs == m_runs && (isPending() || !m_model->diff().runs.isEmpty() || !m_message.isEmpty()))
        return; // already shown, or being read
    m_runs = runs;
    m_diffs.cancel(); // a set of runs being read is superseded
    m_message = runs.isEmpty() ? QString() : runDiffCountProblem(runs.size());
    if (runs.size() < minDiffRuns || runs.size() > maxDiffRuns) {
        if (runs.size() > maxDiffRuns)
            m_message = QStringLiteral("%1 runs in scope: Compare shows %2 to %3 runs side by side, field by field.\n"
                                       "Select %2 to %3 runs in the run table (Ctrl+click, Shift+click), or narrow "
                                       "the filter; `kix diff` compares them from the command line.")
                            .arg(runs.size())
                            .arg(minDiffRuns)
                            .arg(maxDiffRuns);
        else
            m_message = QStringLiteral("%1 run%2 in scope: Compare shows %3 to %4 runs side by side, field by field.\n"
                                       "Select %3 to %4 runs in the run table (Ctrl+click, Shift+click).")
                            .arg(runs.size())
                            .arg(runs.size() == 1 ? QString() : QStringLiteral("s"))
                            .arg(minDiffRuns)
                            .arg(maxDiffRuns);
        m_model->setDiff({});
        m_empty->setText(m_message);
        m_verdict->clear();
        m_notes->hide();
        m_stack->setCurrentWidget(m_empty);
        m_copy->setEnabled(false);
        m_showEqual->hide(); // nothing to fold or copy: only the message
        m_copy->hide();
        emit filled();
        return;
    }
    m_message.clear();
    m_copy->setEnabled(false);
    m_verdict->setText(QStringLiteral("Reading %1 runs…").arg(runs.size()));
    m_diffs.run(
        workerPool(), [runs](const CancelToken&) { return diffRuns(runs); },
        [this](RunDiff&& diff) { showDiff(std::move(diff)); });
}

void CompareView::showDiff(RunDiff diff)
{
    const bool comparable = diff.comparable;
    const QString verdict = diff.verdict.toHtmlEscaped();
    const QString summary = QStringLiteral("%1 material, %2 measurement, %3 cosmetic difference(s); %4 equal field(s)")
                                .arg(diff.material)
                                .arg(diff.measurement)
                                .arg(diff.cosmetic)
                                .arg(diff.equal);
    // Words first, colour second: "not comparable" reads as such in any palette.
    const QString colour = comparable ? QStringLiteral("#2e7d32") : QStringLiteral("#c62828");
    m_verdict->setText(QStringLiteral("<b><span style=\"color:%1\">%2</span></b> · %3")
                           .arg(colour, comparable ? verdict : QStringLiteral("⚠ ") + verdict, summary));
    m_notes->setText(diff.notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!diff.notes.isEmpty());
    m_model->setDiff(std::move(diff));
    m_stack->setCurrentWidget(m_table);
    m_copy->setEnabled(true);
    m_showEqual->show();
    m_copy->show();
    fitColumns();
    emit filled();
}

void CompareView::fitColumns()
{
    m_table->clearSpans();
    const int columns = m_model->columnCount();
    for (int r = 0; r < m_model->rowCount(); ++r) {
        if (m_model->index(r, 0).data(RunDiffModel::RowTypeRole).toInt() != RunDiffModel::FieldRow && columns > 1)
            m_table->setSpan(r, 0, 1, columns);
    }
    if (columns == 0)
        return;
    QHeaderView* header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    // The field and kind columns fit their text (the field at most a quarter of the view); the runs share the rest.
    int field = 0;
    const QFontMetrics metrics(m_table->font());
    for (int r = 0; r < m_model->rowCount(); ++r) {
        if (const DiffRow* row = m_model->diffRow(r))
            field = std::max(field, metrics.horizontalAdvance(row->path) + 16);
    }
    const int room = std::max(400, m_table->viewport()->width());
    m_table->setColumnWidth(RunDiffModel::FieldColumn, std::clamp(field, 120, room / 4));
    m_table->resizeColumnToContents(RunDiffModel::KindColumn);
    for (int c = RunDiffModel::FirstRunColumn; c < columns; ++c)
        header->setSectionResizeMode(c, QHeaderView::Stretch);
}

QString CompareView::message() const
{
    return m_message;
}

QString CompareView::verdictText() const
{
    return m_model->diff().verdict;
}

QByteArray CompareView::exportText(Format format) const
{
    const RunDiff& diff = m_model->diff();
    if (diff.runs.isEmpty())
        return {};
    switch (format) {
    case Format::Csv:
        return runDiffToCsv(diff);
    case Format::Json:
        return runDiffToJson(diff);
    case Format::Markdown:
        break;
    }
    return runDiffToMarkdown(diff, m_model->showEqual());
}

std::optional<CompareView::Format> CompareView::formatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("md") || suffix == QLatin1String("markdown"))
        return Format::Markdown;
    if (suffix == QLatin1String("csv"))
        return Format::Csv;
    if (suffix == QLatin1String("json"))
        return Format::Json;
    return std::nullopt;
}

bool CompareView::exportTo(const QString& path, QString* error) const
{
    const std::optional<Format> format = formatForPath(path);
    if (!format) {
        *error = QStringLiteral("%1: the name must end in .md, .csv or .json").arg(QDir::toNativeSeparators(path));
        return false;
    }
    const QByteArray text = exportText(*format);
    if (text.isEmpty()) {
        *error = QStringLiteral("nothing to export: select 2 to 8 runs to compare");
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.commit()) {
        *error = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

void CompareView::copy(Format format)
{
    const QByteArray text = exportText(format);
    if (text.isEmpty()) {
        emit statusMessage(QStringLiteral("Nothing to copy: select 2 to 8 runs to compare"));
        return;
    }
    QGuiApplication::clipboard()->setText(QString::fromUtf8(text));
    emit statusMessage(QStringLiteral("Comparison copied to the clipboard as %1").arg(formatName(format)));
}

void CompareView::exportDialog()
{
    if (m_model->diff().runs.isEmpty()) {
        emit statusMessage(
            m_message.isEmpty() ? QStringLiteral("Nothing to export yet") : m_message.section(QLatin1Char('\n'), 0, 0));
        return;
    }
    QString filter;
    QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export the comparison"),
        QDir::home().filePath(QStringLiteral("kix-compare.md")),
        QStringLiteral("Markdown (*.md);;CSV (*.csv);;JSON (*.json)"), &filter);
    if (path.isEmpty())
        return;
    if (!formatForPath(path)) // no suffix typed: the filter's
        path += filter.startsWith(QLatin1String("CSV")) ? QStringLiteral(".csv")
            : filter.startsWith(QLatin1String("JSON"))  ? QStringLiteral(".json")
                                                        : QStringLiteral(".md");
    QString error;
    if (!exportTo(path, &error))
        QMessageBox::warning(this, QStringLiteral("Export the comparison"), error);
    else
        emit statusMessage(QStringLiteral("Comparison saved to %1").arg(QDir::toNativeSeparators(path)));
}

} // namespace kix
