#include "detailspane.h"

#include "durationtext.h"
#include "eventflags.h"
#include "eventserializer.h"
#include "jsonstrings.h"
#include "jsontreemodel.h"
#include "presentation.h"
#include "reporttext.h"
#include "timeutil.h"

#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QJsonDocument>
#include <QLocale>
#include <QJsonObject>
#include <algorithm>
#include <QLabel>
#include <QScrollArea>
#include <QMenu>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTabWidget>
#include <QTextCursor>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace {

QToolButton* linkButton(const QString& text, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setAutoRaise(true);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return button;
}

} // namespace

DetailsPane::DetailsPane(QWidget* parent)
    : QWidget(parent)
    , m_header(new QLabel(this))
    , m_toStart(::linkButton(tr("Go to start"), this))
    , m_toEnd(::linkButton(tr("Go to end"), this))
    , m_toResult(::linkButton(tr("Go to result"), this))
    , m_toParent(::linkButton(tr("Go to thread root"), this))
    , m_toEdits(::linkButton(tr("Edited: Show Original…"), this))
    , m_tabs(new QTabWidget(this))
    , m_tree(new QTreeView(this))
    , m_model(new JsonTreeModel(this))
    , m_raw(new QPlainTextEdit(this))
    , m_text(new QPlainTextEdit(this))
{
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::RichText);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setMargin(4);
    m_header->setAlignment(Qt::AlignLeft | Qt::AlignTop);

    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    // The value has the width: the keys as wide as they need up to two fifths of the pane (a nested key sized to its
    // contents took all a narrow pane had, and cut every value to a letter), the type as wide as its word.
    m_tree->header()->setSectionResizeMode(JsonTreeModel::KeyColumn, QHeaderView::Interactive);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(JsonTreeModel::ValueColumn, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(JsonTreeModel::TypeColumn, QHeaderView::ResizeToContents);
    m_tree->viewport()->installEventFilter(this); // its width: the keys' share again
    connect(m_model, &QAbstractItemModel::modelReset, this, &DetailsPane::fitKeys);
    connect(m_tree, &QTreeView::expanded, this, &DetailsPane::fitKeys);
    connect(m_tree, &QWidget::customContextMenuRequested, this, &DetailsPane::showMenu);
    connect(m_tree, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.data(JsonTreeModel::CutRole).toBool())
            showAll(index);
    });

    makeSelectable(m_raw);
    m_raw->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_raw->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    m_tabs->addTab(m_tree, tr("Payload"));
    m_tabs->addTab(m_raw, tr("Raw"));
    // The text as the timeline shows it: the easiest place to select what to redact.
    m_tabs->addTab(m_text, tr("Text"));
    makeSelectable(m_text);

    auto* links = new QHBoxLayout;
    links->setContentsMargins(0, 0, 0, 0);
    m_toEdits->setToolTip(tr("A reviewer changed what the source said here: see what it said, and revert"));
    for (QToolButton* b : { m_toStart, m_toEnd, m_toResult, m_toParent, m_toEdits }) {
        links->addWidget(b);
        b->hide();
    }
    links->addStretch();
    int buttonHeight = 0;
    for (QToolButton* b : { m_toStart, m_toEnd, m_toResult, m_toParent, m_toEdits }) {
        b->ensurePolished(); // its size as the style draws it
        buttonHeight = std::max(buttonHeight, b->sizeHint().height());
    }
    // The row keeps that height when no link shows (a message has none): an empty layout took no place, and the
    // tabs moved by its height and spacing between a message and a call.
    auto* linkRow = new QWidget(this);
    linkRow->setLayout(links);
    linkRow->setFixedHeight(buttonHeight);
    connect(m_toStart, &QToolButton::clicked, this, [this] { emit goToIndex(*m_details.call->startIndex); });
    connect(m_toEnd, &QToolButton::clicked, this, [this] { emit goToIndex(*m_details.call->endIndex); });
    connect(m_toResult, &QToolButton::clicked, this, [this] { emit goToIndex(*m_details.call->resultIndex); });
    connect(m_toParent, &QToolButton::clicked, this, [this] { emit goToIndex(*m_details.parentIndex); });
    connect(m_toEdits, &QToolButton::clicked, this, &DetailsPane::showEditsRequested);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    // The header has a height of its own, four lines, whatever the event (a message says one line, a failed call
    // with its error and a note five): the tabs below stay in place from event to event, where a click aimed at
    // them missed when the header grew. What does not fit scrolls.
    auto* headerArea = new QScrollArea(this);
    headerArea->setWidget(m_header);
    headerArea->setWidgetResizable(true);
    headerArea->setFrameShape(QFrame::NoFrame);
    headerArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Rich text sets its lines a little apart: four of them whole, not three and a half.
    headerArea->setFixedHeight(int(4.5 * m_header->fontMetrics().lineSpacing()) + 2 * m_header->margin());
    layout->addWidget(headerArea);
    layout->addWidget(linkRow);
    layout->addWidget(m_tabs, 1);
    clear();
}

QToolButton* DetailsPane::linkButton(const QString& which) const
{
    if (which == QLatin1String("parent"))
        return m_toParent;
    if (which == QLatin1String("edits"))
        return m_toEdits;
    return which == QLatin1String("start") ? m_toStart : which == QLatin1String("end") ? m_toEnd : m_toResult;
}

void DetailsPane::clear()
{
    m_details = EventDetails();
    m_header->setText(tr("<i>Select an event to see it in full.</i>"));
    m_model->clear();
    m_raw->clear();
    m_text->clear();
    m_textSource.clear();
    m_textIsResult = false;
    for (QToolButton* b : { m_toStart, m_toEnd, m_toResult, m_toParent, m_toEdits })
        b->hide();
}

void DetailsPane::setDetails(const EventDetails& details)
{
    m_details = details;
    const EventRecord& e = details.record;
    // The source's words in the header, a bidi override or a NUL as its code point.
    auto escaped = [](const QString& text) { return ReportText::shown(text).toHtmlEscaped(); };
    QStringList facts { QStringLiteral("<b>%1</b>").arg(escaped(e.type)), EventKinds::name(e.kind),
        tr("index %1").arg(e.index) };
    if (e.sourceLine > 0)
        facts << tr("line %1").arg(e.sourceLine);
    if (e.createdMicros)
        facts << TimeUtil::formatMicros(e.createdMicros);
    QStringList notes;
    if (e.isBlocked())
        notes << tr("blocked by %1").arg(e.blockedBy.isEmpty() ? tr("an unnamed hook") : escaped(e.blockedBy));
    if (e.isSynthetic())
        notes << tr("synthetic: made up by the source system, not said by the agent");
    if (e.flags & EventFlags::Ambiguous)
        notes << tr("ambiguous: another call of this name ran at the same time");
    else if (e.flags & EventFlags::Guessed)
        notes << tr("paired by name and order (a guess: the source keeps no ids)");
    if (e.flags & EventFlags::Partial)
        notes << tr("partial: the file starts inside this record");
    if (e.flags & EventFlags::FromSnapshot)
        notes << (e.type == QLatin1String("RUN_STARTED")
                ? tr("from the run's input: the log has no stream of this message")
                : tr("from a messages snapshot: the log has no stream of this message"));
    if (e.flags & EventFlags::MalformedJson)
        notes << tr("the stored JSON is malformed");
    if (e.flags & EventFlags::InvalidUtf8)
        notes << tr("the stored bytes are not valid UTF-8");
    QString html = facts.join(QStringLiteral(" · "));
    if (details.call) {
        const ToolCallRecord& c = *details.call;
        QStringList call { QStringLiteral("<b>%1</b>").arg(escaped(c.toolName)), Outcomes::name(c.outcome), Pairings::name(c.pairing) };
        if (c.durationMs)
            call << DurationText::full(c);
        if (c.argumentsValid == false)
            call << tr("arguments are not valid JSON");
        html += QStringLiteral("<br>") + tr("Tool call: ") + call.join(QStringLiteral(" · "));
        if (!c.error.isEmpty())
            html += QStringLiteral("<br>") + Presentation::errorLine(escaped(c.error.left(300)));
    }
    if (!notes.isEmpty())
        html += QStringLiteral("<br><i>") + notes.join(QStringLiteral("; ")) + QStringLiteral("</i>");
    // What the source's protocol says is wrong here, in the problems' colour, each on a line of its own.
    for (const QString& w : e.warning.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        html += QStringLiteral("<br><span style=\"color:%1\">⚠ %2</span>")
                    .arg(Presentation::problemColour(Presentation::isDark(palette())).name(), escaped(w));
    m_header->setText(html);

    auto showLink = [&](QToolButton* b, const std::optional<qint64>& at) {
        b->setVisible(at && *at != e.index);
        if (at)
            b->setToolTip(tr("Index %1").arg(*at));
    };
    showLink(m_toStart, details.call ? details.call->startIndex : std::nullopt);
    showLink(m_toEnd, details.call ? details.call->endIndex : std::nullopt);
    showLink(m_toParent, details.parentIndex);
    m_toEdits->setVisible(e.flags & EventFlags::Revised);
    showLink(m_toResult,
        details.call && details.call->resultIndex != details.call->endIndex ? details.call->resultIndex : std::nullopt);

    // A call's start shows the call whole: what Sightline made of it, then its start, end and result rows.
    QByteArray shown = details.payload;
    QString raw = QString::fromUtf8(details.payload);
    m_sections = { { 0, e.index, raw, 0 } };
    raw = shownPart(raw, &m_sections.first().shown);
    if (!details.endPayload.isEmpty() || !details.resultPayload.isEmpty() || !details.earlierResults.isEmpty()) {
        QJsonObject whole = QJsonDocument::fromJson(EventSerializer::callJson(*details.call)).object();
        raw = QStringLiteral("── start ──\n");
        m_sections.clear();
        auto part = [&](const QString& key, const QByteArray& payload, std::optional<qint64> index,
                        const QString& label = QString()) {
            if (payload.isEmpty())
                return;
            const QJsonDocument doc = QJsonDocument::fromJson(payload);
            whole.insert(key, doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(QString::fromUtf8(payload)));
            if (key != QLatin1String("start"))
                raw += QStringLiteral("\n\n── %1 ──\n").arg(label.isEmpty() ? key : label);
            const QString text = QString::fromUtf8(payload);
            m_sections.append({ raw.size(), index.value_or(-1), text, 0 });
            raw += shownPart(text, &m_sections.last().shown);
        };
        part(QStringLiteral("start"), details.payload, e.index);
        part(QStringLiteral("end"), details.endPayload, details.call->endIndex);
        // Every result of the call, in order (result_1, result_2, ...); the last one, `result`, settled it.
        const qsizetype results = details.earlierResults.size() + 1;
        for (qsizetype k = 0; k < details.earlierResults.size(); ++k) {
            part(QStringLiteral("result_%1").arg(k + 1), details.earlierResults[k].second, details.earlierResults[k].first,
                tr("result %1 of %2").arg(k + 1).arg(results));
        }
        part(QStringLiteral("result"), details.resultPayload, details.call->resultIndex,
            results > 1 ? tr("result %1 of %1, the one that settled it").arg(results) : QString());
        shown = QJsonDocument(whole).toJson(QJsonDocument::Compact);
    }
    const bool json = m_model->setJson(shown);
    m_tree->expandToDepth(0);
    m_raw->setPlainText(raw);
    const std::optional<ToolCallRecord>& answered = details.call;
    m_textIsResult = answered && answered->resultIndex == e.index && answered->startIndex != e.index
        && !answered->result.isEmpty();
    m_textSource = m_textIsResult ? answered->result : e.text;
    m_text->setPlainText(shownPart(m_textSource, &m_textShown));
    // The tab the reader is on stays while it has something to show (an event read again after a redaction in its
    // Text tab went back to Payload, and so did every next event read in Raw); else Payload, or Raw for a record
    // that is not JSON (a CraftBot record is markdown: its raw text is what there is).
    const int was = m_tabs->currentIndex();
    m_tabs->setTabEnabled(0, json);
    m_tabs->setTabEnabled(2, !m_textSource.isEmpty());
    if (!m_tabs->isTabEnabled(was))
        m_tabs->setCurrentIndex(json ? 0 : 1);
    else
        m_tabs->setCurrentIndex(was);
}

QString DetailsPane::shownPart(const QString& text, qsizetype* marked)
{
    QString shown = ReportText::shown(text.size() <= ViewLimit ? text : text.left(ViewLimit));
    if (marked)
        *marked = shown.size();
    if (text.size() <= ViewLimit)
        return shown;
    return shown
        + tr("\n\n… %1 more characters not shown here: the JSON Lines report (File ▸ Export Report…) and Copy Value "
             "in the Payload tab hold them whole")
              .arg(QLocale().toString(text.size() - ViewLimit));
}

QString DetailsPane::valueText(const QModelIndex& index) const
{
    // A string as its text (a string that holds JSON is that JSON); anything else as JSON.
    const bool string
        = index.siblingAtColumn(JsonTreeModel::TypeColumn).data().toString().startsWith(QLatin1String("string"));
    return index.data(string ? JsonTreeModel::FullValueRole : JsonTreeModel::JsonRole).toString();
}

QString DetailsPane::pathText(const QModelIndex& index) const
{
    return index.data(JsonTreeModel::PathRole).toString();
}

bool DetailsPane::saveValue(const QModelIndex& index, const QString& file, QString* error) const
{
    // QSaveFile: a failed save leaves whatever was there before.
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(valueText(index).toUtf8()) < 0 || !out.commit()) {
        if (error)
            *error = out.errorString();
        return false;
    }
    return true;
}

void DetailsPane::showMenu(const QPoint& at)
{
    const QModelIndex index = m_tree->indexAt(at);
    if (!index.isValid())
        return;
    QMenu menu(this);
    menu.addAction(QIcon::fromTheme(QStringLiteral("edit-copy")), tr("Copy Value"),
        [this, index] { QApplication::clipboard()->setText(valueText(index)); });
    menu.addAction(tr("Copy Path"), [this, index] { QApplication::clipboard()->setText(pathText(index)); });
    const RedactionTarget target = treeValue(index);
    QAction* redact = menu.addAction(target.length < 0 ? tr("Redact Field…") : tr("Redact Value…"),
        [this, target] { emit redactRequested(target); });
    redact->setEnabled(target.error.isEmpty());
    if (!target.error.isEmpty())
        redact->setToolTip(target.error);
    menu.setToolTipsVisible(true);
    QAction* all = menu.addAction(tr("Show All…"), [this, index] { showAll(index); });
    all->setEnabled(index.data(JsonTreeModel::CutRole).toBool());
    menu.addAction(QIcon::fromTheme(QStringLiteral("document-save-as")), tr("Save Value…"), [this, index] {
        const QString file = QFileDialog::getSaveFileName(this, tr("Save Value"), QString());
        QString error;
        if (!file.isEmpty() && !saveValue(index, file, &error))
            QApplication::beep();
    });
    menu.exec(m_tree->viewport()->mapToGlobal(at));
}

void DetailsPane::makeSelectable(QPlainTextEdit* edit)
{
    edit->setReadOnly(true);
    // Selectable from the keyboard too (a read-only text takes the mouse only): what to redact is chosen there.
    edit->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    edit->installEventFilter(this); // Ctrl+Z stays the window's
    // What is selected can be redacted from here too (Ctrl+Shift+R in the Edit menu).
    edit->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(edit, &QWidget::customContextMenuRequested, this, [this, edit](const QPoint& at) {
        QMenu* menu = edit->createStandardContextMenu();
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->setToolTipsVisible(true);
        const RedactionTarget target = selectedText();
        menu->addSeparator();
        QAction* redact = menu->addAction(tr("Redact Selection…"), this, [this, target] { emit redactRequested(target); });
        redact->setEnabled(target.error.isEmpty());
        redact->setToolTip(target.error);
        menu->popup(edit->viewport()->mapToGlobal(at));
    });
}

void DetailsPane::fitKeys()
{
    m_tree->resizeColumnToContents(JsonTreeModel::KeyColumn); // its keys' width, expanded ones with their indent
    const int wanted = m_tree->header()->sectionSize(JsonTreeModel::KeyColumn);
    const int most = std::max(80, m_tree->viewport()->width() * 2 / 5);
    m_tree->header()->resizeSection(JsonTreeModel::KeyColumn, std::clamp(wanted, 40, most));
}

bool DetailsPane::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_tree->viewport() && event->type() == QEvent::Resize)
        fitKeys();
    // The read-only text still claims Undo and Redo for itself, with nothing to undo: they are the window's.
    if ((watched == m_raw || watched == m_text) && event->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo)) {
            event->ignore();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

DetailsPane::RedactionTarget DetailsPane::selectedText() const
{
    RedactionTarget t;
    if (m_tabs->currentWidget() == m_text && m_text->textCursor().hasSelection())
        return selectedInText();
    const QTextCursor cursor = m_raw->textCursor();
    if (!cursor.hasSelection() || m_tabs->currentWidget() != m_raw) {
        t.error = tr("Select the text to redact in the Text or Raw tab of the details, or right-click a value in the "
                     "Payload tree.");
        return t;
    }
    const qsizetype from = cursor.selectionStart(), to = cursor.selectionEnd();
    for (const Section& s : m_sections) {
        if (from < s.offset || to > s.offset + s.shown)
            continue; // (the line saying how much more there is, after a long one's first part, is no payload)
        if (s.index < 0)
            break;
        // Where the selection is in the payload: a character shown as its code point is one in it.
        const qsizetype a = ReportText::sourcePosition(s.text, from - s.offset, false);
        const qsizetype b = ReportText::sourcePosition(s.text, to - s.offset, true);
        if (!JsonStrings::values(s.text)) {
            // Not JSON (a CraftBot record): its text is cut as it is.
            t.index = s.index;
            t.start = a;
            t.length = b - a;
            t.text = s.text.mid(t.start, t.length);
            return t;
        }
        const auto picked = JsonStrings::selectionAt(s.text, a, b);
        if (!picked)
            break;
        t.index = s.index;
        t.path = picked->token.path;
        t.start = picked->start;
        t.length = picked->length;
        t.text = picked->token.value.mid(picked->start, picked->length);
        return t;
    }
    t.error = tr("The selection is not inside one string value of a payload: select text between its quotes.");
    return t;
}

DetailsPane::RedactionTarget DetailsPane::selectedInText() const
{
    RedactionTarget t;
    const QTextCursor cursor = m_text->textCursor();
    const EventRecord& e = m_details.record;
    t.index = e.index;
    if (cursor.selectionEnd() > m_textShown) {
        t.error = tr("Select text of the message itself, not the line that says how much more there is.");
        return t;
    }
    // Where the selection is in the text: a character shown as its code point is one in it.
    const QString& shown = m_textSource;
    t.start = ReportText::sourcePosition(shown, cursor.selectionStart(), false);
    t.length = ReportText::sourcePosition(shown, cursor.selectionEnd(), true) - t.start;
    t.text = shown.mid(t.start, t.length);
    // A text a reviewer edited is in no payload: it is redacted as the row shows it (and in its edits).
    if ((e.flags & EventFlags::Revised) && !m_textIsResult) {
        t.path = QStringLiteral("@text");
        return t;
    }
    // An assembled message (AG-UI): its text is its parts', each redacted in its own row.
    if (!e.messageId.isEmpty() && !(e.flags & EventFlags::Folded) && e.kind != EventKind::ToolCall) {
        t.path = QStringLiteral("@message");
        return t;
    }
    // Else the text is a string of the payload, or a part of a payload that is text (a CraftBot record).
    const QString payload = QString::fromUtf8(m_details.payload);
    if (const auto strings = JsonStrings::values(payload)) {
        for (const JsonStrings::Token& token : *strings) {
            if (token.value == shown) {
                t.path = token.path;
                return t;
            }
        }
    } else if (payload.count(shown) == 1) {
        t.start += payload.indexOf(shown);
        return t;
    }
    t = RedactionTarget();
    t.error = tr("This text is made from several places of the event: select it in the Raw tab.");
    return t;
}

DetailsPane::RedactionTarget DetailsPane::treeValue(const QModelIndex& index) const
{
    RedactionTarget t;
    const QString type = index.siblingAtColumn(JsonTreeModel::TypeColumn).data().toString();
    const bool string = type.startsWith(QLatin1String("string"));
    // An object or an array: every string in it (a whole field).
    const bool field = type.startsWith(QLatin1String("object")) || type.startsWith(QLatin1String("array"));
    QString path = pathText(index);
    t.text = field ? valueText(index) : index.data(JsonTreeModel::FullValueRole).toString();
    if ((!string && !field) || t.text.isEmpty()) {
        t.error = tr("Only text can be redacted: this value is not a string, or it is empty.");
        return t;
    }
    t.index = m_details.record.index;
    if (m_sections.size() > 1 || (m_details.call && !m_details.endPayload.isEmpty())) {
        // The call whole: what Sightline made of it is derived; its rows are where the text is stored.
        static const QRegularExpression row(QStringLiteral("^\\$\\.(start|end|result(?:_(\\d+))?)(.*)$"));
        const QRegularExpressionMatch m = row.match(path);
        if (!m.hasMatch()) {
            t.error = tr("This is what Sightline made of the call: redact the text in its start, end or result row below.");
            return t;
        }
        const QString which = m.captured(1);
        const qsizetype earlier = m.captured(2).isEmpty() ? -1 : m.captured(2).toLongLong() - 1;
        const std::optional<qint64> at = which == QLatin1String("start") ? std::optional(m_details.record.index)
            : which == QLatin1String("end")                              ? m_details.call->endIndex
            : earlier >= 0 && earlier < m_details.earlierResults.size()
            ? std::optional(m_details.earlierResults[earlier].first)
            : m_details.call->resultIndex;
        if (!at) {
            t.error = tr("That row is not in the room.");
            return t;
        }
        t.index = *at;
        path = QLatin1Char('$') + m.captured(3);
    }
    t.path = path;
    t.start = 0;
    t.length = field ? -1 : t.text.size();
    return t;
}

void DetailsPane::showAll(const QModelIndex& index)
{
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(pathText(index));
    // A bidi override or a NUL as its code point here too (Copy Value and Save Value give the value as it is).
    auto* text = new QPlainTextEdit(ReportText::shown(valueText(index)), dialog);
    text->setReadOnly(true);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog->resize(800, 600);
    dialog->show();
}
