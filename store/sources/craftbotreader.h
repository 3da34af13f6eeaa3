#pragma once

#include "eventmdparser.h"
#include "sourcereader.h"

#include <memory>

class SourceDatabase;

// CraftBot's event logs (SOURCES.md §2): an EVENT.md or EVENT_UNPROCESSED.md (newer multi-line records with
// pretty JSON, older one-line Python repr, a file rotation cut) as one room, or a sessions.db (newer CraftBot)
// with each event stream a room and its head_summary shown as what came before. A stream is assembled whole
// (CraftBotAssembler); a sync writes the records that are new and refreshes the action rows their partners
// changed. An EVENT.md whose first record changed was rotated or rewritten, and is read again from the start; one
// that has only grown since this process last read it is parsed from the start of its last record then (the record
// CraftBot may have been writing), the records before it kept: a followed log is read only where it is new.
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

    static bool detectEventMd(const QString& path);
    static bool detectSessionsDb(const QString& path);
    // How many reads of an EVENT.md in this process parsed only what was appended since the last read of the file
    // (a followed log), and forgetting those positions (the next read of each file parses it whole).
    static int resumedReads();
    static void forgetReadPositions();

private:
    // `records` (the stream's first ones, or all of it) assembled and written: the rows after the feed's cursor
    // added, those up to it compared, the calls and runs replaced.
    static void write(const QVector<EventMdRecord>& records, const QString& where, RoomFeed& feed);
    // A sessions.db stream's records, in position order; problems with them go to `notes`.
    QVector<EventMdRecord> streamRecords(const QString& streamId, const SourceNotes& notes);

    QString m_path;
    std::unique_ptr<SourceDatabase> m_db; // a sessions.db; none for an EVENT.md
    EventMdFile m_file; // an EVENT.md: read whole, or on from where this process last read it
};
