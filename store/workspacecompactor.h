#pragma once

#include <functional>
#include <QtGlobal>

class Workspace;

// Makes a workspace as small as its content: its big text packed (TextPacker), then the file written anew without
// its free pages (VACUUM). A workspace made before text was packed (schema 13) keeps its text as it was written:
// a 100,000-record EVENT.md's was 414 MB, 125 MB once packed. Nothing a reader sees changes, annotations, edits and
// redactions included: a value is packed only when it reads back the same (unpack()), and the full-text index,
// which knows the words and not how they are kept, is left as it is.
//
// The text is packed a few thousand rows at a time, each batch its own transaction: a compaction stopped or killed
// leaves a workspace that reads the same, part of it packed. VACUUM is one transaction: all of it or none.
class WorkspaceCompactor
{
public:
    struct Result
    {
        qint64 bytesBefore = 0; // the workspace and its write-ahead log
        qint64 bytesAfter = 0;
        qint64 packed = 0; // rows with a value packed
        bool stopped = false; // `progress` said to stop: the rest was left as it was, and nothing vacuumed
    };
    // Called after each batch with the rows looked at so far and in all; false stops after that batch.
    using Progress = std::function<bool(qint64 done, qint64 total)>;

    explicit WorkspaceCompactor(Workspace& ws);
    // Throws StoreError naming the workspace.
    Result run(const Progress& progress = {});

    static constexpr qint64 BatchRows = 4096;

private:
    qint64 fileBytes() const;

    Workspace& m_ws;
};
