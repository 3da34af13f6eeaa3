#include "detailspane.h"

#include "eventflags.h"
#include "eventserializer.h"
#include "jsontreemodel.h"
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
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSaveFile>
#include <QTabWidget>
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
    , m_tabs(new QTabWidget(this))
    , m_tree(new QTreeView(this))
    , m_model(new JsonTreeModel(this))
    , m_raw(new QPlainTextEdit(this))
{
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::RichText);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setMargin(4);

    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    m_tree->header()->setSectionResizeMode(JsonTreeModel::KeyColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(JsonTreeModel::ValueColumn, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(JsonTreeModel::TypeColumn, QHeaderView::ResizeToContents);
    connect(m_tree, &QWidget::customContextMenuRequested, this, &DetailsPane::showMenu);
    connect(m_tree, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.data(JsonTreeModel::CutRole).toBool())
            showAll(index);
    });

    m_raw->setReadOnly(true);
    m_raw->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_raw->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    m_tabs->addTab(m_tree, tr("Payload"));
    m_tabs->addTab(m_raw, tr("Raw"));

    auto* links = new QHBoxLayout;
    links->setContentsMargins(0, 0, 0, 0);
    for (QToolButton* b : { m_toStart, m_toEnd, m_toResult, m_toParent }) {
        links->addWidget(b);
        b->hide();
    }
    links->addStretch();
    connect(m_toStart, &QToolButton::clicked, this, [this] { emit goToIndex(*m_details.call->startIndex); });
    connect(m_toEnd, &QToolButton::clicked, this, [this] { emit goToIndex(*m_details.call->endIndex); });
    connect(m_toResult, &QToolButton::clicked, this, [this] { emit goToIndex(*m_details.call->resultIndex); });
    connect(m_toParent, &QToolButton::clicked, this, [this] { emit goToIndex(*m_details.parentIndex); });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_header);
    layout->addLayout(links);
    layout->addWidget(m_tabs, 1);
    clear();
}

QToolButton* DetailsPane::linkButton(const QString& which) const
{
    if (which == QLatin1String("parent"))
        return m_toParent;
    return which == QLatin1String("start") ? m_toStart : which == QLatin1String("end") ? m_toEnd : m_toResult;
}

void DetailsPane::clear()
{
    m_details = EventDetails();
    m_header->setText(tr("<i>Select an event to see it in full.</i>"));
    m_model->clear();
    m_raw->clear();
    for (QToolButton* b : { m_toStart, m_toEnd, m_toResult, m_toParent })
        b->hide();
}

void DetailsPane::setDetails(const EventDetails& details)
{
    m_details = details;
    const EventRecord& e = details.record;
    QStringList facts { QStringLiteral("<b>%1</b>").arg(e.type.toHtmlEscaped()), e.kind.toHtmlEscaped(),
        tr("index %1").arg(e.index) };
    if (e.sourceLine > 0)
        facts << tr("line %1").arg(e.sourceLine);
    if (e.createdMicros)
        facts << TimeUtil::formatMicros(e.createdMicros);
    QStringList notes;
    if (e.isBlocked())
        notes << tr("blocked by %1").arg(e.blockedBy.isEmpty() ? tr("an unnamed hook") : e.blockedBy.toHtmlEscaped());
    if (e.isSynthetic())
        notes << tr("synthetic: made up by the source system, not said by the agent");
    if (e.flags & EventFlags::Ambiguous)
        notes << tr("ambiguous: another call of this name ran at the same time");
    else if (e.flags & EventFlags::Guessed)
        notes << tr("paired by name and order (a guess: the source keeps no ids)");
    if (e.flags & EventFlags::Partial)
        notes << tr("partial: the file starts inside this record");
    if (e.flags & EventFlags::MalformedJson)
        notes << tr("the stored JSON is malformed");
    if (e.flags & EventFlags::InvalidUtf8)
        notes << tr("the stored bytes are not valid UTF-8");
    QString html = facts.join(QStringLiteral(" · "));
    if (details.call) {
        const ToolCallRecord& c = *details.call;
        QStringList call { QStringLiteral("<b>%1</b>").arg(c.toolName.toHtmlEscaped()), c.outcome, c.pairing };
        if (c.durationMs)
            call << tr("%1 ms").arg(*c.durationMs)
                    + (c.durationSource == DurationSource::Timestamps ? tr(" (from timestamps)") : QString());
        if (c.argumentsValid == false)
            call << tr("arguments are not valid JSON");
        html += QStringLiteral("<br>") + tr("Tool call: ") + call.join(QStringLiteral(" · "));
        if (!c.error.isEmpty())
            html += QStringLiteral("<br>") + tr("Error: ") + c.error.left(300).toHtmlEscaped();
    }
    if (!notes.isEmpty())
        html += QStringLiteral("<br><i>") + notes.join(QStringLiteral("; ")) + QStringLiteral("</i>");
    m_header->setText(html);

    auto showLink = [&](QToolButton* b, const std::optional<qint64>& at) {
        b->setVisible(at && *at != e.index);
        if (at)
            b->setToolTip(tr("Index %1").arg(*at));
    };
    showLink(m_toStart, details.call ? details.call->startIndex : std::nullopt);
    showLink(m_toEnd, details.call ? details.call->endIndex : std::nullopt);
    showLink(m_toParent, details.parentIndex);
    showLink(m_toResult,
        details.call && details.call->resultIndex != details.call->endIndex ? details.call->resultIndex : std::nullopt);

    // A call's start shows the call whole: what Sightline made of it, then its start, end and result rows.
    QByteArray shown = details.payload;
    QString raw = QString::fromUtf8(details.payload);
    if (!details.endPayload.isEmpty() || !details.resultPayload.isEmpty()) {
        QJsonObject whole = QJsonDocument::fromJson(EventSerializer::callJson(*details.call)).object();
        auto part = [&](const char* key, const QByteArray& payload) {
            if (payload.isEmpty())
                return;
            const QJsonDocument doc = QJsonDocument::fromJson(payload);
            whole.insert(QLatin1String(key),
                doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(QString::fromUtf8(payload)));
            raw += QStringLiteral("\n\n── %1 ──\n").arg(QLatin1String(key)) + QString::fromUtf8(payload);
        };
        part("start", details.payload);
        part("end", details.endPayload);
        part("result", details.resultPayload);
        shown = QJsonDocument(whole).toJson(QJsonDocument::Compact);
        raw = QStringLiteral("── start ──\n") + raw;
    }
    const bool json = m_model->setJson(shown);
    m_tree->expandToDepth(0);
    m_tabs->setTabEnabled(0, json);
    m_tabs->setCurrentIndex(json ? 0 : 1); // a CraftBot record is markdown: its raw text is what there is
    m_raw->setPlainText(raw);
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

void DetailsPane::showAll(const QModelIndex& index)
{
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(pathText(index));
    auto* text = new QPlainTextEdit(valueText(index), dialog);
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
