#include "editsdialog.h"

#include "jsontext.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace {

QString fieldTitle(const Edit& e)
{
    switch (e.field) {
    case Edit::Field::Text:
        return EditsDialog::tr("Text");
    case Edit::Field::Arguments:
        return EditsDialog::tr("Arguments");
    case Edit::Field::Result:
        return EditsDialog::tr("Result");
    case Edit::Field::Outcome:
        return EditsDialog::tr("Outcome");
    case Edit::Field::Link:
        return EditsDialog::tr("Linked end %1 to start %2").arg(e.otherIndex.value_or(0)).arg(e.index);
    case Edit::Field::Unlink:
        return EditsDialog::tr("Unlinked end %1 from start %2").arg(e.otherIndex.value_or(0)).arg(e.index);
    }
    return {};
}

// A stored value as people read it: JSON indented, a text as it is.
QString readable(const Edit& e, const QString& value)
{
    if (e.isPair())
        return EditsDialog::describeCalls(value);
    if (e.field == Edit::Field::Arguments || e.field == Edit::Field::Result)
        return JsonText::editable(value, false);
    return value;
}

} // namespace

EditsDialog::EditsDialog(qint64 index, const Edits& edits, QWidget* parent)
    : QDialog(parent)
    , m_edits(edits)
    , m_list(new QTreeWidget(this))
    , m_original(new QPlainTextEdit(this))
    , m_edited(new QPlainTextEdit(this))
    , m_revert(new QPushButton(tr("&Revert This Edit"), this))
{
    setWindowTitle(tr("Edits of Event %1").arg(index));
    auto* layout = new QVBoxLayout(this);
    m_list->setHeaderLabels({ tr("Change"), tr("By"), tr("When"), tr("Saved") });
    m_list->setRootIsDecorated(false);
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 4; ++c)
        m_list->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    // A few edits an item: the values side by side get the room.
    m_list->setMaximumHeight(m_list->fontMetrics().height() * 7);
    for (const Edit& e : edits) {
        auto* item = new QTreeWidgetItem(m_list,
            { fieldTitle(e), e.author, QDateTime::fromMSecsSinceEpoch(e.atMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                e.saved ? tr("yes") : tr("not yet") });
        item->setToolTip(0, fieldTitle(e));
    }
    layout->addWidget(m_list);
    auto* sides = new QSplitter(this);
    for (auto [edit, title] : { std::pair(m_original, tr("As the source gave it")), std::pair(m_edited, tr("As edited")) }) {
        auto* box = new QWidget(sides);
        auto* boxLayout = new QVBoxLayout(box);
        boxLayout->setContentsMargins(0, 0, 0, 0);
        boxLayout->addWidget(new QLabel(QStringLiteral("<b>%1</b>").arg(title), box));
        edit->setReadOnly(true);
        edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        boxLayout->addWidget(edit);
        sides->addWidget(box);
    }
    layout->addWidget(sides, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_revert, QDialogButtonBox::ActionRole);
    m_revert->setToolTip(tr("Take this edit out: the item shows what the source gave, or the edit before it (undoable)"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QTreeWidget::currentItemChanged, this,
        [this] { showEdit(m_list->indexOfTopLevelItem(m_list->currentItem())); });
    connect(m_revert, &QPushButton::clicked, this, [this] {
        const int row = m_list->indexOfTopLevelItem(m_list->currentItem());
        if (row < 0 || row >= m_edits.size())
            return;
        emit revertRequested(m_edits.at(row).id);
        accept();
    });
    if (!edits.isEmpty())
        m_list->setCurrentItem(m_list->topLevelItem(edits.size() - 1)); // the latest: what shows now
    resize(760, 420);
}

void EditsDialog::showEdit(int row)
{
    m_revert->setEnabled(row >= 0 && row < m_edits.size());
    if (row < 0 || row >= m_edits.size())
        return;
    const Edit& e = m_edits.at(row);
    m_original->setPlainText(readable(e, e.original));
    m_edited->setPlainText(readable(e, e.value));
}

QString EditsDialog::describeCalls(const QString& snapshot)
{
    QStringList lines;
    const QJsonArray calls = QJsonDocument::fromJson(snapshot.toUtf8()).object().value(QLatin1String("calls")).toArray();
    for (const QJsonValue& v : calls) {
        const QJsonObject c = v.toObject();
        auto at = [&c](const char* key) {
            const QJsonValue x = c.value(QLatin1String(key));
            return x.isNull() || x.isUndefined() ? QStringLiteral("—") : QString::number(x.toInteger());
        };
        lines << tr("%1: start %2, end %3 (%4, %5)")
                     .arg(c.value(QLatin1String("tool_name")).toString(), at("start_seq"),
                         c.value(QLatin1String("end_seq")).isNull() ? at("result_seq") : at("end_seq"),
                         c.value(QLatin1String("pairing")).toString(), c.value(QLatin1String("outcome")).toString());
    }
    return lines.join(QLatin1Char('\n'));
}
