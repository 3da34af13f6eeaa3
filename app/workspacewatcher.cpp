#include "workspacewatcher.h"

#include "storeclient.h"
#include "workspace.h"

#include <QSqlQuery>
#include <QTimer>
#include <memory>

WorkspaceWatcher::WorkspaceWatcher(StoreClient* store, QObject* parent)
    : QObject(parent)
    , m_store(store)
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(2000);
    connect(m_timer, &QTimer::timeout, this, [this] { look(true); });
}

void WorkspaceWatcher::workspaceOpened()
{
    m_count = -1;
    look(false);
    m_timer->start();
}

void WorkspaceWatcher::acknowledge()
{
    look(false);
}

void WorkspaceWatcher::setInterval(int ms)
{
    m_timer->setInterval(ms);
}

void WorkspaceWatcher::look(bool tell)
{
    if (m_looking && tell)
        return; // the last look has not come back
    m_looking = true;
    struct Head
    {
        qint64 count = 0, newest = 0;
        bool content = false;
    };
    auto head = std::make_shared<Head>();
    const qint64 since = m_newest;
    m_store->run(
        StoreClient::Kind::JournalHead,
        [head, since](Workspace& ws, const CancelToken&) {
            QSqlQuery q = ws.exec(QStringLiteral("SELECT count(*), coalesce(max(id), 0), coalesce(max(action IN ('redacted', "
                                                 "'text_edited', 'arguments_edited', 'result_edited', 'outcome_changed', "
                                                 "'linked', 'unlinked', 'edit_reverted') AND id > ?), 0) FROM journal"),
                { since });
            if (q.next()) {
                head->count = q.value(0).toLongLong();
                head->newest = q.value(1).toLongLong();
                head->content = q.value(2).toBool();
            }
        },
        this,
        [this, head, tell] {
            m_looking = false;
            const bool moved = m_count >= 0 && (head->count != m_count || head->newest != m_newest);
            m_count = head->count;
            m_newest = head->newest;
            if (moved && tell)
                emit changed(head->content);
        },
        [this](const QString&) { m_looking = false; });
}
