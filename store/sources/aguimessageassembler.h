#pragma once

#include "aguiassembler.h"

#include <QHash>
#include <QSet>
#include <optional>

class AguiRows;
class AguiRunTracker;

// The AG-UI assembler's messages: text and reasoning messages from their START/CONTENT/END or CHUNK rows (the deltas
// folded into the row that starts each, which shows the text so far), the deprecated THINKING_* ones, the user
// messages kaboo notes (their text from a run's input or a snapshot, possibly later), and the ids of every message the
// log streamed (the snapshot placer shows only those it did not).
class AguiMessageAssembler
{
public:
    // A TEXT_MESSAGE_* row (or, `reasoning`, a REASONING_MESSAGE_* one) at `i`.
    void takeText(AguiRows& rows, const AguiRunTracker& runs, qint64 i, const QJsonObject& e, bool reasoning);
    // A REASONING_* or THINKING_* row at `i`.
    void takeReasoning(AguiRows& rows, const AguiRunTracker& runs, qint64 i, const QJsonObject& e);
    // The chunked message open ends (another kind of event came, or the log ended).
    void closeChunkMessage();
    // kaboo's note of a user message at `i` (a CUSTOM kaboo.message_meta): its text comes from a run's input or a
    // snapshot.
    void takeUserNote(EventRecord& r, qint64 i, const QJsonObject& value);
    // The user messages of a run's input or a snapshot, by id.
    void rememberUserMessages(const QJsonArray& messages);
    // A message the log streamed (a call's parent message, a result's, an activity's): not new in a snapshot.
    void noteStreamed(const QString& id) { m_streamed.insert(id); }

    // What a row shows of the messages: a message's text at its first row, a user's at kaboo's note of it.
    void finalize(StoredEvent& row);
    // The rows that left before a later line changed what they show: brought back, to be written again.
    void recallChanged(AguiRows& rows) const;

    const QSet<QString>& streamed() const { return m_streamed; }
    const QVector<std::pair<qint64, QString>>& userRows() const { return m_userRows; }
    // The text of the first of kaboo's user notes that has one.
    QString firstNotedUserText() const;
    // The first user message that streamed whole (TEXT_MESSAGE_START to END).
    const QString& firstStreamedUserText() const { return m_firstStreamedUserText; }
    const QVector<AguiMessage>& messages() const { return m_messages; }

private:
    AguiMessage* message(const QString& key);
    AguiMessage& startMessage(AguiRows& rows, const AguiRunTracker& runs, qint64 i, QString id, const QString& role,
        bool reasoning);
    AguiMessage& messageFor(AguiRows& rows, const AguiRunTracker& runs, qint64 i, const QString& id, bool reasoning);
    void addDelta(AguiRows& rows, qint64 i, AguiMessage& m, const QString& delta);
    // A reasoning message `id` started (or started again) in the phase open, if one is.
    void joinPhase(AguiRows& rows, const AguiRunTracker& runs, const QString& id);

    QVector<AguiMessage> m_messages;
    QHash<QString, qsizetype> m_messageAt;
    QHash<qint64, qsizetype> m_messageByFirst; // the row that shows a message
    QHash<QString, QString> m_userText;
    QVector<std::pair<qint64, QString>> m_userRows; // kaboo's notes of user messages: their row and message id
    QHash<qint64, QString> m_userIdAt;
    QHash<qint64, QString> m_userSettled; // the text a user row showed when it left
    QSet<QString> m_streamed; // the ids of messages the log streamed (text, reasoning, results, activity)
    QString m_chunkMessage;
    QString m_thinking;
    // The reasoning phase open (REASONING_START or THINKING_START to its END): its START's row, and the last
    // reasoning message started in it.
    struct ReasoningPhase
    {
        qint64 start = 0;
        QString message;
    };
    std::optional<ReasoningPhase> m_phase;
    QString m_firstStreamedUserText;
};
