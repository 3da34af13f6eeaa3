#pragma once

#include <QString>
#include <QVector>

// A room of a queue and where it stands: left, in review (by whom, until when) or done (by whom, when).
struct TeamQueueRoom
{
    enum class State { Left, InReview, Done };

    QString system;
    QString room; // its id in its source
    int position = 0; // 1 for the first `next` hands out
    State state = State::Left;
    QString author; // who holds it or finished it, as they sign
    QString login; // the same, as the server knows them
    qint64 untilMs = 0; // in review: when the lock runs out
    qint64 doneMs = 0;

    static QString stateName(State s)
    {
        return s == State::Done ? QStringLiteral("done") : s == State::InReview ? QStringLiteral("in review") : QStringLiteral("left");
    }
};

using TeamQueueRooms = QVector<TeamQueueRoom>;
