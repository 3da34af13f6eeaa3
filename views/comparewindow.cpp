#include "comparewindow.h"

#include "comparemodel.h"
#include "compare/comparison.h"
#include "compare/runsteps.h"
#include "compareexportdialog.h"
#include "comparereport.h"
#include "filterquery.h"
#include "reviewer.h"
#include "roommatch.h"
#include "sources/importer.h"
#include "storeclient.h"
#include "storeerror.h"
#include "workspace.h"

#include <QAction>
#include <QComboBox>
#include <QCompleter>
#include <QSignalBlocker>
#include <QDir>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QScreen>
#include <QPushButton>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
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
    // As big as a screen lets it be (a desktop's panel left room), placed on the screen: at 1200 × 720 beside the main
    // window it ran past the bottom of a 1000-pixel screen.
    const QRect screen = (parent && parent->screen() ? parent->screen() : QGuiApplication::primaryScreen())->availableGeometry();
    resize(std::min(1200, screen.width() - 40), std::min(720, screen.height() - 80));
    move(screen.center() - rect().center());
    m_sides = new QLabel(tr("<b>A</b>: %1<br><b>B</b>: %2").arg(titleA.toHtmlEscaped(), titleB.toHtmlEscaped()), this);
    m_sides->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText); // a tool's name or a message is not markup
    m_summary->setText(tr("Comparing…"));
    m_filterEdit = new QLineEdit(this);
    m_filterEdit->setPlaceholderText(tr("Filter both runs, as the filter bar does: tool:web_search outcome:failed (Ctrl+L)"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filterEdit->setToolTip(tr("A pair of steps is kept when either of them matches. Return compares again."));
    connect(m_filterEdit, &QLineEdit::returnPressed, this, &CompareWindow::applyFilter);
    auto* focusFilter = new QAction(tr("Filter"), this);
    focusFilter->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(focusFilter, &QAction::triggered, this, [this] {
        m_filterEdit->setFocus(Qt::ShortcutFocusReason);
        m_filterEdit->selectAll();
    });
    addAction(focusFilter);
    m_status = new QLabel(this);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_export = new QPushButton(tr("&Export…"), this);
    m_export->setToolTip(tr("Write the comparison as an HTML or Markdown report with a manifest (Ctrl+E)"));
    m_export->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_export->setEnabled(false); // until the whole comparison is made
    connect(m_export, &QPushButton::clicked, this, &CompareWindow::askExport);
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
    // The details hold a changed call's arguments and result key by key: room for a dozen lines of them.
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    top->addWidget(m_sides, 1);
    m_roomsB = new QComboBox(this);
    m_roomsB->setToolTip(tr("B's room: any room of its source, compared with A's. Type a part of its name to find it "
                            "among thousands, then Return."));
    // A source may hold thousands of rooms: a part of a name finds one (the list pops up with the rooms that hold
    // it), and the box is as wide as a name, not as the longest of ten thousand (measured at every fill).
    m_roomsB->setEditable(true);
    m_roomsB->setInsertPolicy(QComboBox::NoInsert);
    m_roomsB->completer()->setFilterMode(Qt::MatchContains);
    m_roomsB->completer()->setCaseSensitivity(Qt::CaseInsensitive);
    m_roomsB->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_roomsB->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_roomsB->setMinimumContentsLength(24);
    connect(m_roomsB->lineEdit(), &QLineEdit::returnPressed, this, [this] { chooseRoomB(m_roomsB->currentText()); });
    // Left without Return: the box shows B's room again, not a part of a name that was never chosen.
    connect(m_roomsB->lineEdit(), &QLineEdit::editingFinished, this, [this] {
        if (!m_roomsB->lineEdit()->hasFocus() && m_roomsB->currentIndex() >= 0)
            m_roomsB->setEditText(m_roomsB->itemText(m_roomsB->currentIndex()));
    });
    m_roomsB->hide(); // until B's rooms are known
    m_roomsBLabel = new QLabel(tr("B's &room:"), this);
    m_roomsBLabel->setBuddy(m_roomsB);
    m_roomsBLabel->hide();
    connect(m_roomsB, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index < 0)
            return;
        const qint64 id = m_roomsB->itemData(index).toLongLong();
        if (id == m_roomB || id == 0)
            return;
        m_roomB = id;
        m_roomNameB = m_roomsB->itemText(index);
        showSides(false);
        compareAgain();
    });
    top->addWidget(m_roomsBLabel, 0, Qt::AlignTop);
    top->addWidget(m_roomsB, 0, Qt::AlignTop);
    top->addWidget(m_export, 0, Qt::AlignTop);
    layout->addLayout(top);
    layout->addWidget(m_filterEdit);
    layout->addWidget(m_summary);
    layout->addWidget(split);
    layout->addWidget(m_status);
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

namespace {

// How many steps of each run the first screen shows while the whole is compared.
constexpr int firstSteps = 200;

// The workspace at `path` on this thread: `ws` itself when it is that one, else one opened for the work.
template<typename Work>
auto withWorkspace(Workspace& ws, const QString& path, Work work)
{
    if (path.isEmpty() || path == ws.path())
        return work(ws);
    Workspace other(path);
    return work(other);
}

} // namespace

void CompareWindow::compare(
    StoreClient* store, qint64 roomA, qint64 roomB, const QString& otherSource, const std::optional<EventFilter>& filter)
{
    struct First
    {
        Comparison c;
        QString pathB; // where B's room is read from: empty, A's workspace
        qint64 roomB = 0;
        QString nameA, nameB;
        bool fallback = false; // B holds no room of A's id: its first was taken
        QVector<std::pair<qint64, QString>> roomsB; // every room of B's workspace, for the choice of another
    };
    auto out = std::make_shared<First>();
    m_store = store;
    m_roomA = roomA;
    m_filter = filter;
    m_filterEdit->setText(filter ? FilterQuery::format(*filter) : QString());
    m_complete = false;
    // First the sides (the other source read into its cached workspace), and the first steps of each aligned alone,
    // shown at once; then the whole.
    store->run(
        StoreClient::Kind::Compare,
        [out, roomA, roomB, otherSource, filter](Workspace& ws, const CancelToken&) {
            out->nameA = ws.room(roomA) ? ws.room(roomA)->nativeId : QString();
            out->roomB = roomB;
            if (roomB == 0) {
                // A workspace is read as it is; a source is read into its cached workspace first.
                const bool workspace = Importer::detect(otherSource) == Importer::Format::Workspace;
                out->pathB = workspace ? otherSource : Importer::cachedWorkspacePath(otherSource);
                Workspace other(out->pathB);
                if (!workspace)
                    Importer::import(other, otherSource);
                const QVector<qint64> same = other.findRooms(out->nameA);
                const RoomSummaries rooms = other.rooms();
                if (same.isEmpty() && rooms.isEmpty())
                    throw StoreError(otherSource, {}, QStringLiteral("it holds no room to compare with"));
                out->roomB = same.isEmpty() ? rooms.first().id : same.first();
                out->fallback = same.isEmpty();
                out->nameB = other.room(out->roomB) ? other.room(out->roomB)->nativeId : QString();
                for (const RoomSummary& r : rooms)
                    out->roomsB.append({ r.id, r.nativeId });
            } else {
                out->nameB = ws.room(roomB) ? ws.room(roomB)->nativeId : QString();
                for (const RoomSummary& r : ws.rooms())
                    out->roomsB.append({ r.id, r.nativeId });
            }
            out->c = Comparison::make(ws, roomA, out->pathB.isEmpty() ? ws.path() : out->pathB, out->roomB,
                filter ? &*filter : nullptr, firstSteps);
        },
        this,
        [this, out, otherSource] {
            m_pathB = out->pathB;
            m_roomB = out->roomB;
            m_roomNameA = out->nameA;
            m_roomNameB = out->nameB;
            // A room of another id than A's, taken because B has none of A's, says so: the choice is beside it.
            showSides(!otherSource.isEmpty() && out->fallback);
            {
                const QSignalBlocker quiet(m_roomsB);
                m_roomsB->clear();
                for (const auto& [id, name] : out->roomsB)
                    m_roomsB->addItem(name, id);
                m_roomsB->setCurrentIndex(m_roomsB->findData(out->roomB));
                m_roomsB->setVisible(out->roomsB.size() > 1);
                m_roomsBLabel->setVisible(out->roomsB.size() > 1);
            }
            m_model->setComparison(std::move(out->c.a), std::move(out->c.b), std::move(out->c.pairs));
            m_view->scrollToTop();
            m_summary->setText(tr("Comparing… the first steps of each run are shown, aligned by themselves; the whole "
                                  "comparison follows."));
            compareAll();
        },
        [this](const QString& why) { failed(why); });
}

void CompareWindow::compareAll()
{
    auto out = std::make_shared<Comparison>();
    const QString pathB = m_pathB;
    const qint64 roomA = m_roomA, roomB = m_roomB;
    const std::optional<EventFilter> filter = m_filter;
    m_store->run(
        StoreClient::Kind::Compare,
        [out, roomA, roomB, pathB, filter](Workspace& ws, const CancelToken&) {
            *out = Comparison::make(ws, roomA, pathB.isEmpty() ? ws.path() : pathB, roomB, filter ? &*filter : nullptr);
        },
        this,
        [this, out] {
            m_complete = true;
            m_view->show();
            m_details->show();
            m_model->setComparison(std::move(out->a), std::move(out->b), std::move(out->pairs));
            m_export->setEnabled(true);
            shown();
        },
        [this](const QString& why) { failed(why); });
}

void CompareWindow::applyFilter()
{
    // Compared again: the keys (n, p, Ctrl+E) go to the table, not into the field.
    if (setFilterText(m_filterEdit->text()))
        m_view->setFocus(Qt::OtherFocusReason);
}

void CompareWindow::chooseRoomB(const QString& typed)
{
    // B's room as Go ▸ Room… finds one (RoomMatch: its id, or the one id that holds the text); else the box shows
    // B's room again and the status line says why.
    const QString part = typed.trimmed();
    RoomSummaries rooms;
    for (int i = 0; i < m_roomsB->count(); ++i) {
        RoomSummary r;
        r.id = m_roomsB->itemData(i).toLongLong();
        r.nativeId = m_roomsB->itemText(i);
        rooms << r;
    }
    const RoomMatch match = RoomMatch::find(rooms, part);
    if (const int index = match.ids.isEmpty() ? -1 : m_roomsB->findData(match.ids.first()); index >= 0) {
        m_roomsB->setCurrentIndex(index);
        m_roomsB->setEditText(m_roomsB->itemText(index));
        return;
    }
    m_roomsB->setEditText(m_roomsB->itemText(m_roomsB->currentIndex()));
    if (!match.several.isEmpty())
        m_status->setText(tr("“%1” is part of %n of B's room ids: type more of one, or choose it from the list.", "",
            int(match.several.size()))
                              .arg(part));
    else
        m_status->setText(tr("No room “%1” in B (room ids are matched as written%2); B is still room %3.")
                              .arg(part,
                                  match.otherCase.isEmpty() || match.otherCase.size() > 5
                                      ? QString()
                                      : tr(": did you mean %1?").arg(match.otherCase.join(tr(" or "))),
                                  m_roomNameB));
}

void CompareWindow::showSides(bool fallback)
{
    // B's source (its title) and the room of it compared, which the room box may change.
    m_sides->setText(tr("<b>A</b>: %1<br><b>B</b>: %2, room %3%4")
                         .arg(m_titleA.toHtmlEscaped(), m_titleB.toHtmlEscaped(), m_roomNameB.toHtmlEscaped(),
                             fallback ? tr(" <i>(it has no room %1: its first room, or choose another)</i>")
                                            .arg(m_roomNameA.toHtmlEscaped())
                                      : QString()));
    setWindowTitle(tr("Compare: %1 ↔ %2, room %3 — Sightline").arg(m_titleA, m_titleB, m_roomNameB));
}

bool CompareWindow::setRoomB(const QString& nativeId)
{
    const int index = m_roomsB->findText(nativeId);
    if (index < 0)
        return false;
    m_roomsB->setCurrentIndex(index);
    return true;
}

QStringList CompareWindow::roomsOfB() const
{
    QStringList out;
    for (int i = 0; i < m_roomsB->count(); ++i)
        out << m_roomsB->itemText(i);
    return out;
}

bool CompareWindow::setFilterText(const QString& text)
{
    m_filterEdit->setText(text);
    const FilterQuery::Result parsed = FilterQuery::parse(text);
    if (!parsed.ok()) {
        // Said where the eye is, and that the rows are still the last filter's.
        m_summary->setText(tr("The filter was not applied: %1. The rows below are still those of %2.")
                               .arg(parsed.error,
                                   m_filter ? tr("the filter %1").arg(FilterQuery::format(*m_filter)) : tr("every step")));
        return false;
    }
    if (!m_store || m_roomB == 0)
        return false; // the sides are not known yet: the comparison under way takes the filter it began with
    m_status->clear();
    m_filter = FilterQuery::format(parsed.filter).isEmpty() ? std::nullopt : std::optional<EventFilter>(parsed.filter);
    compareAgain();
    return true;
}

void CompareWindow::compareAgain()
{
    // Another filter or another room of B: nothing to export until the whole is compared again.
    m_complete = false;
    m_export->setEnabled(false);
    m_summary->setText(tr("Comparing…"));
    compareAll();
}

void CompareWindow::failed(const QString& why)
{
    // Said here, where the user looks, with nothing else in the way (the main window shows no box of its own).
    m_summary->setText(tr("The runs were not compared: %1").arg(why));
    m_model->setComparison({}, {}, {});
    m_view->hide();
    m_details->hide();
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
    if (first < 0) {
        m_summary->setText(m_header
            + (m_filter ? tr(" — the runs are the same under this filter, step for step")
                        : tr(" — the runs are the same, step for step")));
    }
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
    // What the steps hold already (names, outcomes, durations) at once; their texts as they are read.
    renderDetails(row, nullptr, nullptr);
    if (!m_store)
        return;
    struct Texts
    {
        std::optional<StepText> a, b;
    };
    auto out = std::make_shared<Texts>();
    const std::optional<RunStep> stepA = a ? std::optional<RunStep>(*a) : std::nullopt;
    const std::optional<RunStep> stepB = b ? std::optional<RunStep>(*b) : std::nullopt;
    const qint64 roomA = m_roomA, roomB = m_roomB;
    const QString pathB = m_pathB;
    m_store->run(
        StoreClient::Kind::CompareStep,
        [out, stepA, stepB, roomA, roomB, pathB](Workspace& ws, const CancelToken&) {
            if (stepA)
                out->a = RunSteps::text(ws, roomA, *stepA);
            if (stepB)
                out->b = withWorkspace(ws, pathB, [&](Workspace& w) { return RunSteps::text(w, roomB, *stepB); });
        },
        this,
        [this, out, row] {
            // Still the step selected (a comparison replaced meanwhile has other rows).
            if (m_view->currentIndex().row() == row)
                renderDetails(row, out->a ? &*out->a : nullptr, out->b ? &*out->b : nullptr);
        },
        [this](const QString& why) { m_details->append(tr("<p><i>Its texts were not read: %1</i></p>").arg(why.toHtmlEscaped())); });
}

void CompareWindow::renderDetails(int row, const StepText* textA, const StepText* textB)
{
    const RunStep* a = m_model->stepA(row);
    const RunStep* b = m_model->stepB(row);
    if (!a && !b)
        return;
    const bool read = (!a || textA) && (!b || textB);
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
    const auto where = [](const RunStep* s) {
        return s ? (s->fromSnapshot ? tr("event %1 (from a snapshot)").arg(s->index) : tr("event %1").arg(s->index)) : tr("none");
    };
    const RunStep& s = a ? *a : *b;
    if (s.kind == RunStep::Kind::ToolCall) {
        html += tr("<b>%1</b> — A: %2, B: %3").arg(s.tool.toHtmlEscaped(), where(a), where(b));
        if (a && b) {
            html += tr("<p>Outcome: %1 → %2. Duration: %3 → %4%5</p>")
                        .arg(a->outcome, b->outcome, a->durationMs ? tr("%1 ms").arg(*a->durationMs) : tr("unknown"),
                            b->durationMs ? tr("%1 ms").arg(*b->durationMs) : tr("unknown"),
                            a->durationMs && b->durationMs && *a->durationMs > 0
                                ? tr(" (× %1)").arg(double(*b->durationMs) / double(*a->durationMs), 0, 'f', 2)
                                : QString());
            if (!read) {
                html += tr("<p><i>Reading the arguments and results…</i></p>");
            } else {
                const QStringList args = CompareModel::jsonDiff(textA->arguments, textB->arguments);
                html += args.isEmpty() ? tr("<p>Arguments: the same.</p>") : tr("<p><b>Arguments</b></p>") + lines(args);
                const QStringList result = CompareModel::jsonDiff(textA->result, textB->result);
                html += result.isEmpty() ? tr("<p>Result: the same.</p>") : tr("<p><b>Result</b></p>") + lines(result);
            }
        } else {
            const StepText* t = a ? textA : textB;
            html += tr("<p>Only in %1.</p>").arg(a ? tr("A") : tr("B"));
            if (t) {
                html += tr("<p>Arguments: <code>%1</code></p><p>Result: <code>%2</code></p>")
                            .arg(t->arguments.toHtmlEscaped(), t->result.toHtmlEscaped());
            }
        }
    } else {
        html += tr("<b>%1's message</b> — A: %2, B: %3").arg(s.role.toHtmlEscaped(), where(a), where(b));
        if (a)
            html += tr("<p><b>A</b>: %1</p>").arg((textA ? textA->text : a->preview).toHtmlEscaped());
        if (b)
            html += tr("<p><b>B</b>: %1</p>").arg((textB ? textB->text : b->preview).toHtmlEscaped());
    }
    m_details->setHtml(html);
}

void CompareWindow::askExport()
{
    const QString name = m_roomNameA == m_roomNameB || m_roomNameB.isEmpty()
        ? QStringLiteral("compare-%1").arg(m_roomNameA)
        : QStringLiteral("compare-%1-%2").arg(m_roomNameA, m_roomNameB);
    CompareExportDialog dialog(name.isEmpty() ? QStringLiteral("comparison") : name, this);
    if (dialog.exec() == QDialog::Accepted)
        exportTo(dialog.format(), dialog.path(), dialog.signingKey());
}

void CompareWindow::exportTo(const QString& format, const QString& path, const QString& signingKey)
{
    if (!m_store || !m_complete)
        return;
    CompareReport::Input input;
    input.titleA = m_titleA;
    // B's room as it is now: chosen in the window, not the one it opened with.
    input.titleB = m_roomNameB.isEmpty() ? m_titleB : tr("%1, room %2").arg(m_titleB, m_roomNameB);
    input.roomA = m_roomNameA;
    input.roomB = m_roomNameB;
    input.filter = m_filter ? FilterQuery::format(*m_filter) : QString();
    input.author = Reviewer::name();
    input.version = QStringLiteral(SIGHTLINE_VERSION);
    input.a = m_model->stepsA();
    input.b = m_model->stepsB();
    input.pairs = m_model->pairs();
    auto written = std::make_shared<CompareReport::Result>();
    const qint64 roomA = m_roomA, roomB = m_roomB;
    const QString pathB = m_pathB;
    m_status->setText(tr("Writing %1…").arg(QDir::toNativeSeparators(path)));
    m_store->run(
        StoreClient::Kind::Report,
        [input, format, path, signingKey, written, roomA, roomB, pathB](Workspace& ws, const CancelToken&) mutable {
            withWorkspace(ws, pathB, [&](Workspace& other) {
                input.textOf = [&](const RunStep& step, bool sideB) {
                    return sideB ? RunSteps::text(other, roomB, step) : RunSteps::text(ws, roomA, step);
                };
                *written = CompareReport::write(input, format, path, signingKey);
                return true;
            });
        },
        this,
        [this, path, written] {
            m_status->setText(tr("Wrote %1 (manifest %2%3).")
                                  .arg(QDir::toNativeSeparators(path), QDir::toNativeSeparators(written->manifest),
                                      written->signature.isEmpty() ? tr(", not signed") : tr(", signed")));
            emit exported(path, {});
        },
        [this, path](const QString& why) {
            m_status->setText(tr("The comparison was not written: %1").arg(why));
            emit exported(path, why);
        });
}
