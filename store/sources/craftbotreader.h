#pragma once

#include "craftbotshape.h"
#include "eventmdparser.h"
#include "sourcereader.h"

#include <functional>
#include <memory>

class SourceDatabase;

// CraftBot's event logs (SOURCES.md §2): an EVENT.md or EVENT_UNPROCESSED.md (newer multi-line records with
// pretty JSON, older one-line Python repr, a file rotation cut) as one room, or a sessions.db (newer CraftBot)
// with each event stream a room and its head_summary shown as what came before.
//
// A stream is read twice, a record at a time, and never held whole: the first pass takes its shape (CraftBotShape:
// pairs, tasks, groups, without the records' text), the second makes each row with it (CraftBotAssembler) and
// hands it to the feed, which adds the new ones and compares those the room holds (a sync rewrites the action rows
// their partners changed), the calls going in as their rows go by. A stream never imported before shows its first
// thousand records first. An EVENT.md whose first record changed was rotated or rewritten, and is read again from
// the start; for one that has only grown since this process last read it, the shape is taken on from the start of its
// last record (the record CraftBot may have been writing): a followed log's shape is parsed only where it is new.
class CraftBotReader : public SourceReader
{
public:
    // Throws StoreError naming the file when it cannot be read, or is a SQLite file that is not a sessions.db.
    explicit CraftBotReader(const QString& path);
    ~CraftBotReader() override;

    QString origin() const override;
    SourceIdentity identity() const override;
    QVector<RoomInfo> rooms(const SourceNotes& notes) override;
    bool replacedSince(const RoomInfo& now, const QByteArray& storedNativeJson) const override;
    qint64 rowsAfter(const RoomCursor& cursor) override;
    void read(const RoomCursor& cursor, RoomFeed& feed) override;

    // How far the last read of an EVENT.md in this process went (kept per file, a few files).
    struct ReadPosition;

    static bool detectEventMd(const QString& path);
    static bool detectSessionsDb(const QString& path);
    // How many reads of an EVENT.md in this process parsed only what was appended since the last read of the file
    // (a followed log), and forgetting those positions (the next read of each file parses it whole).
    static int resumedReads();
    // How many of those made the rows only from the first one the new records changed (the rows before it as the
    // last read wrote them into the same room).
    static int rowsResumed();
    static void forgetReadPositions();

private:
    // An EVENT.md's records (on from where the last read stood, when the file only grew since).
    qint64 countRecords() const;
    using RecordTaker = std::function<bool(EventMdRecord&& record, qint64 offset)>;
    // The stream's records in order, from the file's `offset` (an EVENT.md) or its first position (a sessions.db
    // stream, whose problems go to `notes` when given). False when `take` stopped it.
    bool forEachRecord(
        const QString& streamId, const RecordTaker& take, const SourceNotes* notes, qint64 offset = 0, qint64 line = 1);
    // The first pass: the stream's shape (on from where the last read of the file stopped, when it only grew). For a
    // followed EVENT.md synced into the same room in this process, also where its rows are to be made from. A whole
    // log's pass moves the import's progress and stops when it is cancelled: then null.
    std::shared_ptr<const CraftBotShape> shapeOf(RoomFeed& feed, const SourceNotes& notes);
    // The stream's first records, assembled alone and written as a sync of its beginning would write them.
    static void writeWhole(const QVector<EventMdRecord>& records, const QString& where, RoomFeed& feed);

    QString m_path;
    std::unique_ptr<SourceDatabase> m_db; // a sessions.db; none for an EVENT.md
    QString m_header; // an EVENT.md's, and its first record: what identifies the file
    QByteArray m_firstRecord;
    qint64 m_firstMicros = 0;
    qint64 m_records = -1; // an EVENT.md's, counted when first asked
    struct RowsFrom
    {
        qint64 index = 0;
        qint64 offset = 0;
        qint64 line = 1;
        QByteArray tail; // the hash of the bytes before the offset: the file is the one the shape was taken from
    };
    RowsFrom m_rowsFrom; // where the rows of the read under way are made from
    std::shared_ptr<ReadPosition> m_position; // what the read under way keeps for the next one
};
