#pragma once

#include <optional>
#include <QString>
#include <QVector>

// Two review statuses of one room, or two edits of one field of an item, each made without knowing the other
// (TeamSchema step 3): the later (mine) is the one applied, the earlier (theirs) is kept beside it until someone
// chooses (a status set again; for an edit, keeping theirs or mine).
struct TeamConflict
{
    qint64 id = 0;
    QString system;
    QString room;
    QString field; // "review", or an edit's: text, arguments, result, outcome
    QString theirs;
    QString theirsAuthor;
    qint64 theirsAtMs = 0;
    QString mine;
    QString mineAuthor;
    QString mineLogin;
    qint64 mineAtMs = 0;
    std::optional<qint64> seq; // an edit's item

    bool isReview() const { return field == QLatin1String("review"); }
};

using TeamConflicts = QVector<TeamConflict>;
