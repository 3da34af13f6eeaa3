#pragma once

#include <QString>
#include <QVector>

// Two review statuses of one room, each set without knowing the other (TeamSchema step 3): the later (mine) is the
// one applied, the earlier (theirs) is kept beside it until someone sets the status again, choosing.
struct TeamConflict
{
    qint64 id = 0;
    QString system;
    QString room;
    QString field; // "review"
    QString theirs;
    QString theirsAuthor;
    qint64 theirsAtMs = 0;
    QString mine;
    QString mineAuthor;
    QString mineLogin;
    qint64 mineAtMs = 0;
};

using TeamConflicts = QVector<TeamConflict>;
