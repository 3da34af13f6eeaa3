#pragma once

#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

// A queue of a team store (TeamSchema step 3): rooms an admin picked with a filter, handed out one at a time
// (TeamStore::nextInQueue), with where the team stands in it.
struct TeamQueue
{
    // One reviewer's share: the rooms they finished and the one they hold now (0 or 1).
    struct Share
    {
        int done = 0;
        int inReview = 0;
    };

    QString name;
    QString query; // the filter its rooms matched when it was made
    QString instructions;
    int lockSeconds = 1800; // how long `next` holds a room for its reviewer
    QStringList reviewers; // the logins that may take rooms from it; empty: every reviewer
    QString createdBy;
    qint64 createdMs = 0;
    int rooms = 0;
    int done = 0;
    int inReview = 0; // held by a reviewer whose lock has not run out
    QMap<QString, Share> byReviewer; // by login
    int left() const { return rooms - done - inReview; }
};

using TeamQueues = QVector<TeamQueue>;
