#include "comparewindow.h"

#include "comparemodel.h"
#include "compare/runalignment.h"
#include "compare/runsteps.h"
#include "sources/importer.h"
#include "storeclient.h"
#include "storeerror.h"
#include "workspace.h"

#include <QAction>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

CompareWindow::CompareWindow(const QString& titleA, const QString& titleB, QWidget* parent)
    : QWidget(parent, Qt::Window)
    , m_model(new CompareModel(this))
    , m_summary(new QLabel(this))
    , m_view(new QTableView(this))
    , m_details(new QTextBrowser(this))
    , m_titleA(titleA)
    , m_titleB(titleB)
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("Compare: %1 ↔ %2 — Sightline").arg(titleA, titleB));
    resize(1200, 720); // room for a desktop's panel on a 1000-pixel screen
    m_sides = new QLabel(tr("<b>A</b>: %1<br><b>B</b>: %2").arg(titleA.toHtmlEscaped(), titleB.toHtmlEscaped()), this);
    m_sides->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    m_summary->setText(tr("Comparing…"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(CompareModel::AColumn, QHeaderView::Stretch);
    m_view->horizontalHeader()->setSectionResizeMode(CompareModel::BColumn, QHeaderView::Stretch);
    m_view->horizontalHeader()->setSectionResizeMode(CompareModel::ChangeColumn, QHeaderView::ResizeToContents);
    m_view->setWordWrap(false);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(m_details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_sides);
    layout->addWidget(m_summary);
    layout->addWidget(split);
    // n and p, as the timeline's own keys: the next and previous difference.
    auto* next = new QAction(tr("Next Difference"), this);
    next->setShortcut(QKeySequence(Qt::Key_N));
    connect(next, &QAction::triggered, this, [this] { goToDifference(true); });
    auto* previous = new QAction(tr("Previous Difference"), this);
    previous->setShortcut(QKeySequence(Qt::Key_P));
    connect(previous, &QAction::triggered, this, [this] { goToDifference(false); });
    addAction(next);
    addAction(previous);
    auto* close = new QAction(tr("Close"), this);
    close->setShortcuts({ QKeySequence(Qt::Key_Escape), QKeySequence::Close });
    connect(close, &QAction::triggered, this, &QWidget::close);
    addAction(close);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) { showDetails(current.row()); });
    connect(m_view, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex& index) {
        if (const RunStep* a = m_model->stepA(index.row()); a && m_roomA != 0)
            emit goToEvent(m_roomA, a->index);
    });
}

void CompareWindow::compare(
    StoreClient* store, qint64 roomA, qint64 roomB, const QString& otherSource, const std::optional<EventFilter>& filter)
{
    struct Result
    {
        RunStepList a, b;
        StepPairs pairs;
        QString roomB; // the room of another source it chose
    };
    auto out = std::make_shared<Result>();
    m_roomA = roomA;
    store->run(
        StoreClient::Kind::Compare,
        [out, roomA, roomB, otherSource, filter](Workspace& ws, const CancelToken&) {
            const EventFilter* f = filter ? &*filter : nullptr;
            if (roomB != 0) {
                std::tie(out->a, out->b) = RunSteps::readBoth(ws, roomA, ws.path(), roomB, f);
            } else {
                out->a = RunSteps::read(ws, roomA, f);
                // A workspace is read as it is; a source is read into its cached workspace first.
                const bool workspace = Importer::detect(otherSource) == Importer::Format::Workspace;
                Workspace other(workspace ? otherSource : Importer::cachedWorkspacePath(otherSource));
                if (!workspace)
                    Importer::import(other, otherSource);
                const QString name = ws.room(roomA) ? ws.room(roomA)->nativeId : QString();
                const QVector<qint64> same = other.findRooms(name);
                const RoomSummaries rooms = other.rooms();
                if (same.isEmpty() && rooms.isEmpty())
                    throw StoreError(otherSource, {}, QStringLiteral("it holds no room to compare with"));
                const qint64 chosen = same.isEmpty() ? rooms.first().id : same.first();
                out->roomB = other.room(chosen) ? other.room(chosen)->nativeId : QString();
                out->b = RunSteps::read(other, chosen, f);
            }
            out->pairs = RunAlignment::align(out->a, out->b);
        },
        this,
        [this, out] {
            if (!out->roomB.isEmpty()) {
                m_sides->setText(tr("<b>A</b>: %1<br><b>B</b>: %2, room %3")
                                     .arg(m_titleA.toHtmlEscaped(), m_titleB.toHtmlEscaped(), out->roomB.toHtmlEscaped()));
            }
            m_model->setComparison(std::move(out->a), std::move(out->b), std::move(out->pairs));
            shown();
        },
        [this](const QString& why) { m_summary->setText(tr("The runs were not compared: %1").arg(why)); });
}

QString CompareWindow::summaryText() const
{
    return m_summary->text();
}

QString CompareWindow::detailsText() const
{
    return m_details->toPlainText();
}

void CompareWindow::shown()
{
    const QStringList tools = m_model->perTool();
    m_header = m_model->summary() + (tools.isEmpty() ? QString() : tr("\nPer tool: %1").arg(tools.join(QStringLiteral("; "))));
    m_summary->setText(m_header);
    const int first = m_model->nextDifference(-1, true);
    m_view->selectionModel()->setCurrentIndex(m_model->index(first >= 0 ? first : 0, 0),
        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(m_view->currentIndex(), QAbstractItemView::PositionAtCenter);
    if (first < 0)
        m_summary->setText(m_header + tr(" — the runs are the same, step for step"));
}

bool CompareWindow::goToDifference(bool forward)
{
    const int row = m_model->nextDifference(m_view->currentIndex().row(), forward);
    if (row < 0) {
        // Said where the eye is, rather than nothing happening.
        const QString end = forward ? tr(" — no difference after this one") : tr(" — no difference before this one");
        m_summary->setText(m_header + end);
        return false;
    }
    m_summary->setText(m_header);
    m_view->selectionModel()->setCurrentIndex(m_model->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(m_view->currentIndex());
    return true;
}

void CompareWindow::showDetails(int row)
{
    const RunStep* a = m_model->stepA(row);
    const RunStep* b = m_model->stepB(row);
    if (!a && !b) {
        m_details->clear();
        return;
    }
    QString html;
    const auto lines = [](const QStringList& diff) {
        QString out;
        for (const QString& l : diff) {
            const QString colour = l.startsWith(QLatin1Char('+')) ? QStringLiteral("#2e7d32")
                : l.startsWith(QLatin1Char('-'))                  ? QStringLiteral("#c62828")
                                                                   : QStringLiteral("#b26a00");
            out += QStringLiteral("<div style='color:%1; font-family:monospace'>%2</div>").arg(colour, l.toHtmlEscaped());
        }
        return out;
    };
    const RunStep& s = a ? *a : *b;
    if (s.kind == RunStep::Kind::ToolCall) {
        html += tr("<b>%1</b> — A: %2, B: %3").arg(s.tool.toHtmlEscaped(), a ? tr("event %1").arg(a->index) : tr("none"),
            b ? tr("event %1").arg(b->index) : tr("none"));
        if (a && b) {
            html += tr("<p>Outcome: %1 → %2. Duration: %3 → %4%5</p>")
                        .arg(a->outcome, b->outcome, a->durationMs ? tr("%1 ms").arg(*a->durationMs) : tr("unknown"),
                            b->durationMs ? tr("%1 ms").arg(*b->durationMs) : tr("unknown"),
                            a->durationMs && b->durationMs && *a->durationMs > 0
                                ? tr(" (× %1)").arg(double(*b->durationMs) / double(*a->durationMs), 0, 'f', 2)
                                : QString());
            const QStringList args = CompareModel::jsonDiff(a->arguments, b->arguments);
            html += args.isEmpty() ? tr("<p>Arguments: the same.</p>") : tr("<p><b>Arguments</b></p>") + lines(args);
            const QStringList result = CompareModel::jsonDiff(a->result, b->result);
            html += result.isEmpty() ? tr("<p>Result: the same.</p>") : tr("<p><b>Result</b></p>") + lines(result);
        } else {
            html += tr("<p>Only in %1. Arguments: <code>%2</code></p>").arg(a ? tr("A") : tr("B"), s.arguments.toHtmlEscaped());
        }
    } else {
        html += tr("<b>%1's message</b> — A: %2, B: %3").arg(s.role.toHtmlEscaped(), a ? tr("event %1").arg(a->index) : tr("none"),
            b ? tr("event %1").arg(b->index) : tr("none"));
        if (a)
            html += tr("<p><b>A</b>: %1</p>").arg(a->text.toHtmlEscaped());
        if (b)
            html += tr("<p><b>B</b>: %1</p>").arg(b->text.toHtmlEscaped());
    }
    m_details->setHtml(html);
}
