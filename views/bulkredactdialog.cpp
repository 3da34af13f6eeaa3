#include "bulkredactdialog.h"

#include "storeclient.h"
#include "workspace.h"

#include <memory>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSet>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>

BulkRedactDialog::BulkRedactDialog(StoreClient* client, qint64 roomId, const QString& roomName, QWidget* parent)
    : QDialog(parent)
    , m_client(client)
    , m_roomId(roomId)
    , m_expression(new QLineEdit)
    , m_thisRoom(new QRadioButton(tr("This room: %1").arg(roomName)))
    , m_everyRoom(new QRadioButton(tr("Every room")))
    , m_reason(new QComboBox)
    , m_find(new QPushButton(tr("&Find Matches")))
    , m_redact(new QPushButton(tr("&Redact")))
    , m_preview(new QTreeWidget)
    , m_summary(new QLabel)
{
    setWindowTitle(tr("Redact by Pattern"));
    setObjectName(QStringLiteral("bulkRedact"));
    auto* what = new QGroupBox(tr("Find"));
    auto* whatLayout = new QVBoxLayout(what);
    const std::pair<const char*, QString> names[] = { { "email", tr("E-mail addresses") },
        { "phone", tr("Phone numbers (9 to 15 digits)") }, { "card", tr("Payment card numbers (Luhn-checked)") },
        { "secret", tr("Secrets: API keys, bearer tokens, passwords") } };
    for (const auto& [name, label] : names) {
        auto* box = new QCheckBox(label);
        m_builtins.insert(QLatin1String(name), box);
        whatLayout->addWidget(box);
        connect(box, &QCheckBox::toggled, this, &BulkRedactDialog::changed);
    }
    m_expression->setPlaceholderText(tr("and/or a regular expression, e.g. A-\\d{5}"));
    m_expression->setClearButtonEnabled(true);
    whatLayout->addWidget(m_expression);
    connect(m_expression, &QLineEdit::textChanged, this, &BulkRedactDialog::changed);
    auto* where = new QHBoxLayout;
    where->addWidget(m_thisRoom);
    where->addWidget(m_everyRoom);
    where->addStretch();
    m_thisRoom->setChecked(roomId != 0);
    m_thisRoom->setEnabled(roomId != 0);
    m_everyRoom->setChecked(roomId == 0);
    connect(m_thisRoom, &QRadioButton::toggled, this, &BulkRedactDialog::changed);
    whatLayout->addLayout(where);

    m_preview->setHeaderLabels({ tr("Room"), tr("Event"), tr("Where"), tr("Pattern"), tr("Text"), tr("In context") });
    m_preview->setToolTip(tr("Untick a match to leave it as it is"));
    connect(m_preview, &QTreeWidget::itemChanged, this, &BulkRedactDialog::ticked);
    m_preview->setRootIsDecorated(false);
    m_preview->setUniformRowHeights(true);
    m_preview->header()->setStretchLastSection(true);
    m_reason->setEditable(true);
    m_reason->addItems({ tr("personal data"), tr("payment data"), tr("secret or credential"), tr("customer's request") });
    auto* form = new QFormLayout;
    form->addRow(tr("Reason:"), m_reason);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    buttons->addButton(m_find, QDialogButtonBox::ActionRole);
    buttons->addButton(m_redact, QDialogButtonBox::AcceptRole);
    m_redact->setEnabled(false);
    m_find->setDefault(true);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_redact, &QPushButton::clicked, this, &QDialog::accept);
    connect(m_find, &QPushButton::clicked, this, &BulkRedactDialog::find);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(what);
    layout->addWidget(m_preview, 1);
    layout->addWidget(m_summary);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(820, 560);

    connect(m_client, &StoreClient::failed, this, [this](quint64 request, StoreClient::Kind, const QString& why) {
        if (request == m_request)
            m_summary->setText(tr("Could not look: %1").arg(why));
    });
    changed();
}

void BulkRedactDialog::setBuiltin(const QString& name, bool on)
{
    if (QCheckBox* box = m_builtins.value(name))
        box->setChecked(on);
}

void BulkRedactDialog::setExpression(const QString& expression)
{
    m_expression->setText(expression);
}

void BulkRedactDialog::setEveryRoom(bool every)
{
    (every ? m_everyRoom : m_thisRoom)->setChecked(true);
}

void BulkRedactDialog::setReason(const QString& reason)
{
    m_reason->setCurrentText(reason);
}

QString BulkRedactDialog::reason() const
{
    return m_reason->currentText().simplified();
}

QVector<RedactionPatterns::Pattern> BulkRedactDialog::patterns(QString* error) const
{
    QStringList names;
    for (auto it = m_builtins.cbegin(); it != m_builtins.cend(); ++it) {
        if (it.value()->isChecked())
            names << it.key();
    }
    QVector<RedactionPatterns::Pattern> out = RedactionPatterns::builtin(names, error);
    if (!m_expression->text().isEmpty()) {
        const auto own = RedactionPatterns::custom(m_expression->text(), error);
        if (own.isEmpty())
            return {};
        out += own;
    }
    return out;
}

void BulkRedactDialog::changed()
{
    m_matches.clear();
    m_preview->clear();
    m_request = 0;
    QString error;
    const bool any = !patterns(&error).isEmpty();
    m_find->setEnabled(any);
    m_redact->setEnabled(false);
    m_redact->setText(tr("&Redact"));
    m_summary->setText(!error.isEmpty() ? tr("The expression: %1").arg(error)
            : any                       ? tr("Find lists every match before anything changes.")
                                        : tr("Choose what to look for."));
}

RedactionMatches BulkRedactDialog::matches() const
{
    RedactionMatches out;
    for (int i = 0; i < m_preview->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* item = m_preview->topLevelItem(i);
        if (item->checkState(0) == Qt::Checked)
            out.append(m_matches.value(item->data(0, Qt::UserRole).toInt()));
    }
    return out;
}

void BulkRedactDialog::ticked()
{
    const qsizetype n = matches().size();
    m_redact->setEnabled(n > 0);
    m_redact->setText(n == 1 ? tr("&Redact 1 Match") : tr("&Redact %1 Matches").arg(n));
}

void BulkRedactDialog::find()
{
    QString error;
    const auto wanted = patterns(&error);
    if (wanted.isEmpty())
        return;
    const qint64 room = m_thisRoom->isChecked() ? m_roomId : 0;
    auto result = std::make_shared<RedactionMatches>();
    m_summary->setText(tr("Looking…"));
    m_find->setEnabled(false);
    // On the count connection, where work that reads a whole room goes; a newer Find stops this one.
    m_request = m_client->run(StoreClient::Kind::RedactionPreview,
        [result, room, wanted](Workspace& ws, const CancelToken&) { *result = RedactionStore(ws).find(room, wanted); });
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(m_client, &StoreClient::taskDone, this, [this, result, connection](quint64 request) {
        if (request != m_request)
            return;
        disconnect(*connection);
        m_matches = *result;
        m_preview->clear();
        QList<QTreeWidgetItem*> items;
        QSet<std::pair<qint64, qint64>> events;
        for (const RedactionMatch& m : std::as_const(m_matches)) {
            events.insert({ m.roomId, m.index });
            auto* item = new QTreeWidgetItem(QStringList { m.room, QString::number(m.index),
                m.path.isEmpty() ? tr("(text)") : m.path, m.pattern, m.text, m.context });
            item->setCheckState(0, Qt::Checked);
            item->setData(0, Qt::UserRole, int(items.size()));
            item->setToolTip(2, item->text(2));
            item->setToolTip(5, m.context);
            items << item;
        }
        const QSignalBlocker quiet(m_preview);
        m_preview->addTopLevelItems(items);
        for (int column : { 0, 1, 2, 3, 4 })
            m_preview->resizeColumnToContents(column);
        m_summary->setText(m_matches.isEmpty() ? tr("No match.")
                : m_matches.size() == 1          ? tr("1 match. Redact replaces it with [redacted: reason].")
                                                 : tr("%1 matches in %2 events. Redact replaces each with [redacted: reason].")
                                           .arg(m_matches.size())
                                           .arg(events.size()));
        ticked();
        m_find->setEnabled(true);
        emit foundMatches(int(m_matches.size()));
    });
}
