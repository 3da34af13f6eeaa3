#pragma once

#include "aguilogparser.h"
#include "sourcereader.h"

#include <QFile>
#include <QHash>
#include <QJsonObject>
#include <QMap>

// AG-UI thread logs as kaboo-runtime stores them (SOURCES.md §3): a JSON Lines file per thread, a file of
// wrapped lines carrying threadId, or a folder of such files (and a threads/ folder inside it), with kaboo's
// threads.json listing (owner, agent, times) when there is one beside them. Each thread is a room; an event's
// index is its position in the thread's log. Listing the threads reads each file once without parsing the lines
// that name no thread; a thread is then read and assembled as it streams by (AguiThread): a log of any length in
// bounded memory, its first rows shown while the rest imports. A log this process listed and synced before, that
// has only grown since (followed as an agent writes it), is listed and read on from where it stood: a sync reads
// only what is new.
class AguiReader : public SourceReader
{
public:
    // Throws StoreError naming the path when it holds no AG-UI log, or its only log cannot be read.
    explicit AguiReader(const QString& path);

    QString origin() const override;
    SourceIdentity identity() const override;
    QVector<RoomInfo> rooms(const SourceNotes& notes) override;
    qint64 rowsAfter(const RoomCursor& cursor) override;
    void read(const RoomCursor& cursor, RoomFeed& feed) override;
    bool unchangedSince(const QString& workspace, const RoomCursor& cursor) override;

    // Whether `path` is an AG-UI log, or a folder holding some.
    static bool detect(const QString& path);
    // How many syncs in this process went on from where the last sync of their log stood, instead of reading it
    // again from its start.
    static int resumedSyncs();
    // Forgets where the syncs of this process stood (their memory): the next sync of each log reads it whole.
    static void forgetResumePoints();

    struct Thread
    {
        QString id;
        QString file;
        bool ofFile = false; // the file's own thread: its lines without a wrapper's threadId
        qint64 lines = 0;
    };
    struct Listing;
    struct ResumePoint;

private:
    static QVector<Thread> threadsOf(const QString& file, QFile& device);
    static QString resumeKey(const QString& workspace, const RoomCursor& cursor, const Thread& thread);

    QString m_path;
    QStringList m_files;
    QVector<Thread> m_threads;
    QHash<QString, qsizetype> m_byId;
};
