#pragma once

#include "../annotation.h"

#include <optional>
#include <QString>
#include <QVector>

// An annotation as the team store holds it: its room by system and own id (every copy of a source names it so),
// the event by its index and payload fingerprint, and the journal entry that last changed it (`version`).
struct TeamAnnotation
{
    qint64 id = 0;
    QString system;
    QString room;
    std::optional<qint64> seq;
    QString fingerprint;
    Annotation::Kind kind = Annotation::Kind::Note;
    QString value;
    QString author;
    QString login; // the PostgreSQL role that made it
    qint64 atMs = 0;
    bool present = true;
    qint64 version = 0;
};

using TeamAnnotations = QVector<TeamAnnotation>;
