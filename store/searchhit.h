#pragma once

#include <QMetaType>
#include <QString>
#include <QVector>

// One event that a search across rooms found: where it is and enough to recognise it in a list.
struct SearchHit
{
    qint64 roomId = 0;
    QString room; // the room's native id
    QString roomTitle; // its title, when it has one
    qint64 index = 0;
    QString type;
    qint64 createdMicros = 0; // 0: no time
    QString text; // the message text, or the tool's name
};
using SearchHits = QVector<SearchHit>;

Q_DECLARE_METATYPE(SearchHit)
Q_DECLARE_METATYPE(SearchHits)
