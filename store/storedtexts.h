#pragma once

#include "sqlitestatement.h"

#include <optional>
#include <QByteArray>
#include <QString>

class Workspace;

// An event's stored bytes and search text by its row id (events.id), unpacked: what the lossless JSON Lines report
// writes beside the record's own fields. The statement is prepared once for a report's every event.
class StoredTexts
{
public:
    struct Texts
    {
        QByteArray payload; // the bytes as the source wrote them
        QString body; // search_text's three columns; null where the row has none
        QString arguments;
        QString result;
    };

    explicit StoredTexts(Workspace& ws);
    // Nothing when no event has that row id.
    std::optional<Texts> of(qint64 eventRowId);

private:
    SqliteStatement m_read;
};
