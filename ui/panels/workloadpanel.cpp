// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/workloadpanel.h"

#include "model/filter/runtablemodel.h"
#include "ui/models/resolvemodel.h"

#include <QCompleter>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QStringListModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace kix {

WorkloadPanel::WorkloadPanel(std::function<RunList()> runs, QWidget* parent)
    : QWidget(parent)
    , m_runs(std::move(runs))
    , m_operation(new QLineEdit(this))
    , m_axes(new QLineEdit(this))
    , m_dtype(new QLineEdit(this))
    , m_gpu(new QLineEdit(this))
    , m_resolve(new QPushButton(QStringLiteral("Resolve"), this))
    , m_summary(new QLabel(this))
    , m_view(new QTableView(this))
    , m_model(new ResolveModel(this))
    , m_names(new QStringListModel(this))
{
    setObjectName(QStringLiteral("workloadPanel"));
    m_operation->setPlaceholderText(QStringLiteral("operation: kernel name, title or alias"));
    m_operation->setToolTip(QStringLiteral("A kernel name (group_norm), an operation's title or alias, any case"));
    m_axes->setPlaceholderText(QStringLiteral("axes: channels=3000 hidden=512"));
    m_axes->setToolTip(
        QStringLiteral("Axis values as the runs spell them, k=v separated by spaces or commas (numbers are nearest by "
                       "ratio, text matches exactly)"));
    m_dtype->setPlaceholderText(QStringLiteral("dtype"));
    m_gpu->setPlaceholderText(QStringLiteral("GPU"));
    m_gpu->setToolTip(QStringLiteral("A part of the GPU's name, any case (B200, H100)"));
    auto* completer = new QCompleter(m_names, this);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    m_operation->setCompleter(completer);

    auto* fields = new QGridLayout;
    fields->setContentsMargins(0, 0, 0, 0);
    fields->addWidget(m_operation, 0, 0);
    fields->addWidget(m_axes, 0, 1);
    fields->addWidget(m_dtype, 0, 2);
    fields->addWidget(m_gpu, 0, 3);
    fields->addWidget(m_resolve, 0, 4);
    fields->setColumnStretch(0, 3);
    fields->setColumnStretch(1, 3);
    fields->setColumnStretch(2, 1);
    fields->setColumnStretch(3, 1);

    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setText(QStringLiteral("Type an operation and the axes of your workload, then Resolve: the measured "
                                      "cases that match, else the nearest ones and how they differ."));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setToolTip(QStringLiteral("Double-click a row to select its runs in the run table"));
    m_view->resizeColumnsToContents(); // the headers whole before the first answer

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(fields);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);

    for (QLineEdit* edit : { m_operation, m_axes, m_dtype, m_gpu })
        connect(edit, &QLineEdit::returnPressed, this, &WorkloadPanel::resolve);
    connect(m_resolve, &QPushButton::clicked, this, &WorkloadPanel::resolve);
    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex& index) { activateRow(index.row()); });
}

WorkloadPanel::~WorkloadPanel() = default;

void WorkloadPanel::setOperationNames(const RunList& runs)
{
    QSet<QString> names;
    const QString* last = nullptr; // runs of one kernel in a row: no hashing
    for (const RunPtr& run : runs) {
        if (!last || *last != run->kernel) {
            last = &run->kernel;
            if (!run->kernel.isEmpty())
                names.insert(run->kernel);
        }
        if (run->linked) {
            if (!run->linked->operationTitle.isEmpty())
                names.insert(run->linked->operationTitle);
            for (const QString& alias : run->linked->operationAliases)
                names.insert(alias);
        }
    }
    QStringList sorted(names.cbegin(), names.cend());
    std::sort(sorted.begin(), sorted.end(),
        [](const QString& a, const QString& b) { return a.compare(b, Qt::CaseInsensitive) < 0; });
    m_names->setStringList(sorted);
}

QStringList WorkloadPanel::completions() const
{
    return m_names->stringList();
}

void WorkloadPanel::setRequest(const ResolveRequest& request)
{
    m_operation->setText(request.operation);
    QStringList axes;
    for (const KeyValue& kv : request.axes)
        axes << kv.key + QLatin1Char('=') + kv.value;
    m_axes->setText(axes.join(QLatin1Char(' ')));
    m_dtype->setText(request.dtype);
    m_gpu->setText(request.gpu);
}

bool WorkloadPanel::request(ResolveRequest* out, QString* error) const
{
    ResolveRequest r;
    r.operation = m_operation->text().trimmed();
    if (r.operation.isEmpty()) {
        *error = QStringLiteral("no operation: type a kernel name, an operation's title or alias");
        return false;
    }
    static const QRegularExpression separators(QStringLiteral("[\\s,;]+"));
    for (const QString& part : m_axes->text().split(separators, Qt::SkipEmptyParts)) {
        KeyValue kv;
        if (!ResolveRequest::parseAxis(part, &kv, error))
            return false;
        r.axes.append(kv);
    }
    r.dtype = m_dtype->text().trimmed();
    r.gpu = m_gpu->text().trimmed();
    *out = r;
    return true;
}

void WorkloadPanel::resolve()
{
    ResolveRequest r;
    QString error;
    if (!request(&r, &error)) {
        m_summary->setText(QStringLiteral("<b>%1</b>").arg(error.toHtmlEscaped()));
        m_model->setResolution({});
        return;
    }
    const RunList runs = m_runs ? m_runs() : RunList();
    const Resolution res = resolveWorkload(runs, r);
    m_model->setResolution(res);
    m_view->resizeColumnsToContents();
    for (int c = 0; c < ResolveModel::ColumnCount - 1; ++c) // a long workload or mismatch list: in full on hover
        m_view->setColumnWidth(c, std::min(m_view->columnWidth(c), 420));
    m_summary->setText(summary());
}

QString WorkloadPanel::summary() const
{
    const Resolution& r = m_model->resolution();
    if (r.request.operation.isEmpty())
        return m_summary->text();
    QStringList lines;
    if (r.matchedBy.isEmpty()) {
        lines << QStringLiteral("<b>No operation is called “%1”</b> among the runs the table shows.")
                     .arg(r.request.operation.toHtmlEscaped());
        if (!r.suggestions.isEmpty())
            lines << QStringLiteral("Nearest names: %1").arg(r.suggestions.join(QStringLiteral(", ")).toHtmlEscaped());
        return lines.join(QStringLiteral("<br>"));
    }
    const QString answer = r.exact() ? QStringLiteral("<b>Exact</b>: ranked as its cohort")
        : r.found() ? QStringLiteral("<b>Not measured</b>: the nearest measured cases, none of them an answer")
                    : QStringLiteral("<b>Nothing measured near the request</b>");
    lines << QStringLiteral("%1 — matched by %2; %3 runs, %4 measured cases")
                 .arg(answer, r.matchedBy.join(QStringLiteral(", ")).toHtmlEscaped())
                 .arg(r.runCount)
                 .arg(r.caseCount);
    for (const QString& u : r.unknownAxes)
        lines << QStringLiteral("Unknown axis: %1").arg(u.toHtmlEscaped());
    if (!r.unconstrained.isEmpty())
        lines << QStringLiteral("Unconstrained: %1").arg(r.unconstrained.join(QStringLiteral("; ")).toHtmlEscaped());
    return lines.join(QStringLiteral("<br>"));
}

void WorkloadPanel::activateRow(int row)
{
    const RunList runs = m_model->runsOf(row);
    if (runs.isEmpty())
        return;
    const QModelIndex workload = m_model->index(row, ResolveModel::Workload);
    emit runsActivated(runs,
        m_model->index(row, ResolveModel::Match).data().toString() + QStringLiteral(" · ")
            + workload.data().toString());
}

} // namespace kix
