#include "journaldock.h"

#include "journalmodel.h"
#include "storeclient.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

JournalDock::JournalDock(StoreClient* client, QWidget* parent)
    : QDockWidget(tr("Journal"), parent)
    , m_client(client)
    , m_model(new JournalModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView)
    , m_filter(new QLineEdit)
{
    setObjectName(QStringLiteral("journalDock"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterKeyColumn(-1); // any column
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_filter->setPlaceholderText(tr("Filter the journal (who, room, what, text)…"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    connect(m_view, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        const QVariant at = index.data(JournalModel::EventIndexRole);
        emit goTo(index.data(JournalModel::RoomIdRole).toLongLong(), at.isNull() ? -1 : at.toLongLong());
    });
    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_filter);
    layout->addWidget(m_view);
    setWidget(body);
    connect(m_client, &StoreClient::journalLoaded, this, [this](quint64, const JournalEntries& entries, int) {
        m_model->setEntries(entries);
        m_view->resizeColumnsToContents();
        m_view->scrollToBottom();
    });
}

void JournalDock::reload()
{
    m_client->loadJournal();
}
