#pragma once

#include <QString>
#include <QVector>

// A redaction as the team store keeps it: where (the room by system and own id, the event's index, the path and span
// of the string, the piece of an assembled text), why, by whom, and the digest of the text under the store's secret;
// never the text. Every copy applies it as its own redaction (RedactionStore) once it finds the same text there.
struct TeamRedaction
{
    qint64 id = 0;
    QString system;
    QString room;
    qint64 seq = 0;
    QString path;
    int part = 0;
    qint64 start = 0;
    qint64 length = 0;
    QString digest;
    QString reason;
    QString author;
    qint64 atMs = 0;
};

using TeamRedactions = QVector<TeamRedaction>;
