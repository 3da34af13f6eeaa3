#include "storedtexts.h"

#include "workspace.h"

StoredTexts::StoredTexts(Workspace& ws)
    : m_read(ws.handle(),
          "SELECT unpack(e.payload), unpack(s.body), unpack(s.arguments), unpack(s.result) FROM events e "
          "LEFT JOIN search_text s ON s.event_id = e.id WHERE e.id = ?")
{
}

std::optional<StoredTexts::Texts> StoredTexts::of(qint64 eventRowId)
{
    m_read.bind(1, eventRowId);
    std::optional<Texts> out;
    if (m_read.step())
        out = Texts { m_read.bytes(0), m_read.text(1), m_read.text(2), m_read.text(3) };
    m_read.reset();
    return out;
}
