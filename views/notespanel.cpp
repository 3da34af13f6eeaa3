#include "notespanel.h"

#include "editor.h"
#include "eventlistmodel.h"

#include <QAction>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

NotesPanel::NotesPanel(Editor* editor, EventListModel* events, QWidget* parent)
    : QWidget(parent)
    , m_editor(editor)
    , m_events(events)
    , m_header(new QLabel)
    , m_list(new QListWidget)
    , m_add(new QPushButton(tr("Add Note…")))
    , m_remove(new QPushButton(tr("Remove")))
{
    setObjectName(QStringLiteral("notesPanel"));
    m_header->setWordWrap(true);
    m_list->setWordWrap(true);
    m_list->setAlternatingRowColors(true);
    m_add->setToolTip(tr("A note on this event (N), or on the room when no event is selected"));
    m_remove->setToolTip(tr("Remove the selected note or label (Undo brings it back)"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_header);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);
    connect(m_add, &QPushButton::clicked, this, [this] {
        if (m_index >= 0)
            m_editor->noteAction()->trigger();
        else
            m_editor->roomNoteAction()->trigger();
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const QListWidgetItem* item = m_list->currentItem();
        if (!item)
            return;
        const qint64 id = item->data(Qt::UserRole).toLongLong();
        for (const Annotation& a : m_events->annotations()) {
            if (a.id == id)
                m_editor->remove(a);
        }
    });
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) { m_remove->setEnabled(row >= 0); });
    connect(m_events, &EventListModel::annotationsChanged, this, &NotesPanel::refresh);
    refresh();
}

void NotesPanel::showItem(qint64 index)
{
    m_index = index;
    refresh();
}

void NotesPanel::refresh()
{
    Annotations shown;
    if (m_index >= 0) {
        shown = m_events->annotationsAt(m_index);
    } else {
        for (const Annotation& a : m_events->annotations()) {
            if (!a.index)
                shown << a;
        }
    }
    QStringList facts;
    QStringList labels;
    m_list->clear();
    for (const Annotation& a : shown) {
        const QString when = QDateTime::fromMSecsSinceEpoch(a.atMs).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
        if (a.kind == Annotation::Kind::Mark)
            facts << tr("marked by %1").arg(a.author);
        else if (a.kind == Annotation::Kind::Review)
            facts << tr("review: %1 (%2, %3)").arg(a.value, a.author, when);
        if (a.kind == Annotation::Kind::Label)
            labels << a.value;
        if (a.kind != Annotation::Kind::Note && a.kind != Annotation::Kind::Label)
            continue;
        const QString text = a.kind == Annotation::Kind::Note ? a.value : tr("label: %1").arg(a.value);
        auto* item = new QListWidgetItem(QStringLiteral("%1\n— %2, %3%4").arg(text, a.author, when,
            a.saved ? QString() : tr(" (not saved)")));
        item->setData(Qt::UserRole, a.id);
        item->setToolTip(text);
        m_list->addItem(item);
    }
    const QString what = m_index >= 0 ? tr("Event %1").arg(m_index) : tr("The room");
    if (!labels.isEmpty())
        facts.prepend(tr("labels: %1").arg(labels.join(QStringLiteral(", "))));
    const int notes = int(std::count_if(shown.cbegin(), shown.cend(), [](const Annotation& a) { return a.kind == Annotation::Kind::Note; }));
    m_header->setText(QStringLiteral("<b>%1</b> · %2%3")
                          .arg(what.toHtmlEscaped(), notes == 1 ? tr("1 note") : tr("%1 notes").arg(notes),
                              facts.isEmpty() ? QString() : QStringLiteral(" · ") + facts.join(QStringLiteral(" · ")).toHtmlEscaped()));
    m_add->setEnabled(m_events->roomId() != 0);
    m_remove->setEnabled(m_list->currentRow() >= 0);
}
