#pragma once

#include "aguiassembler.h"

#include <QHash>
#include <QMap>
#include <QSet>

class AguiCallAssembler;
class AguiMessageAssembler;
class AguiRows;

// The AG-UI assembler's snapshots: what a MESSAGES_SNAPSHOT or a run's input holds that the log never streamed (a log
// not written by kaboo carries the user's messages only there, and a client's answer to a call comes as a tool
// message there). Kept as they come and placed once the log has ended, when it is known what streamed: a message
// shown at the row that first brought it, a call never streamed made a call of its own there, a tool message
// answering the call it names.
class AguiSnapshotPlacer
{
public:
    // The messages a snapshot or run's input at row `i` brought, those an earlier one did not bring already.
    void remember(AguiRows& rows, qint64 i, const QJsonArray& messages);
    // At the log's end: each message new, each call and each answer placed (see the class).
    void place(AguiRows& rows, AguiCallAssembler& calls, const AguiMessageAssembler& messages);
    // A call a snapshot brought is searchable at the row that brought it, beside the other calls and messages it brought.
    void showCalls(AguiRows& rows, const AguiCallAssembler& calls) const;
    // A row that brought messages shows them: the message when it brought one, each with its role when several.
    void showMessages(AguiRows& rows) const;
    // The text of the first user message a snapshot brought.
    QString firstUserText() const;

private:
    // One snapshot's messages not seen in an earlier one, and the run of the row that brought them.
    struct Snapshot
    {
        qint64 row;
        QString groupId;
        QByteArray messages; // a JSON array, compact: a long log brings many
    };
    // A message a snapshot brought, shown at that row.
    struct Brought
    {
        QString id;
        QString role;
        QString text;
    };

    std::optional<qsizetype> knownCall(const AguiCallAssembler& calls, const QString& id, qint64 row) const;
    void placeCall(AguiRows& rows, AguiCallAssembler& calls, const Snapshot& snapshot, const QJsonObject& toolCall);
    bool answerCall(AguiCallAssembler& calls, qint64 row, const QJsonObject& message);

    QVector<Snapshot> m_snapshots;
    QSet<QByteArray> m_seen; // the messages brought so far, by a hash of their JSON
    QMap<qint64, QVector<Brought>> m_brought; // by the row that shows them
    QHash<QString, QVector<qsizetype>> m_callsById;
    QSet<qint64> m_callRows; // the rows that brought calls
};
