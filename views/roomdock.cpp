#include "roomdock.h"

RoomDock::RoomDock(const QString& title, StoreClient* client, QWidget* parent)
    : QDockWidget(title, parent)
    , m_client(client)
{
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_stale)
            readNow();
    });
}

void RoomDock::refresh(qint64 roomId, const EventFilter& filter)
{
    m_roomId = roomId;
    m_filter = filter;
    m_stale = true;
    if (isVisible())
        readNow();
}

void RoomDock::readNow()
{
    m_stale = false;
    reread(++m_ticket);
}
