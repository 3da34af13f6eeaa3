#pragma once

#include "eventfilter.h"

#include <QDockWidget>

class StoreClient;

// A dock about the room shown under the filter of the bar and panes (Tool Statistics, the Waterfall): read again on
// the store's worker when either changes, and only while the dock is shown; a hidden dock reads once it is shown
// again. An answer to an older ask is dropped.
class RoomDock : public QDockWidget
{
    Q_OBJECT
public:
    RoomDock(const QString& title, StoreClient* client, QWidget* parent = nullptr);

    // The room and filter to read under: read now when the dock is shown, else once it is.
    void refresh(qint64 roomId, const EventFilter& filter);

protected:
    // Reads roomId() under filter() (room 0: none shown); what it answers is wanted while isLatest(ticket).
    virtual void reread(quint64 ticket) = 0;
    bool isLatest(quint64 ticket) const { return ticket == m_ticket; }
    bool isStale() const { return m_stale; } // asked for while hidden, not read yet
    StoreClient* client() const { return m_client; }
    qint64 roomId() const { return m_roomId; }
    const EventFilter& filter() const { return m_filter; }

private:
    void readNow();

    StoreClient* m_client;
    qint64 m_roomId = 0;
    EventFilter m_filter;
    bool m_stale = false;
    quint64 m_ticket = 0;
};
