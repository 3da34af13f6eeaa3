#pragma once

#include "../eventkind.h"
#include "../runrecord.h"
#include "../toolcallrecord.h"
#include "craftbotshape.h"
#include "eventmdparser.h"
#include "importwriter.h"

#include <QHash>
#include <functional>
#include <QString>
#include <QVector>

struct CraftBotAssembly
{
    QVector<StoredEvent> rows; // one per record, index = position in the stream
    ToolCallRecords calls;
    RunRecords runs; // the tasks
    QVector<QPair<qint64, QString>> problems; // (row index, what is wrong)
};

// The second pass over a CraftBot event stream (SOURCES.md §2): each record's row, in order, with canonical kinds for
// CraftBot's free-form ones, and what the stream's shape (CraftBotShape, the first pass) says of it: its task, its
// call, its pairing. A call is handed over once the rows that hold its arguments and result have gone by, so only the
// calls still open are held: a stream of any length goes through in bounded memory.
class CraftBotAssembler
{
public:
    explicit CraftBotAssembler(const CraftBotShape& shape);

    // The rows are handed over from `index` on (a followed log's rows before it are as they were): the calls open
    // across it take their arguments from the stored row of their start.
    void startAt(qint64 index, const std::function<QString(qint64 startRow)>& storedArguments);
    // The row of record `index`; what is wrong with the record goes to `problems`. rowAlone(), then settle().
    StoredEvent row(const EventMdRecord& record, qint64 index, QStringList* problems = nullptr);
    // The row of record `index` as the shape says it, touching no assembler: what an import's reading thread does
    // (the record's action parsed there, a fifth of the import) while the writer settles the rows before it.
    static StoredEvent rowAlone(
        const CraftBotShape& shape, const EventMdRecord& record, qint64 index, QStringList* problems = nullptr);
    // Takes the row's part in its call (rows in order): its arguments or result kept until the call's last row.
    void settle(const StoredEvent& row);
    // The calls whose rows have all gone by, since the last take.
    ToolCallRecords takeCalls();
    // The calls whose start has gone by and whose end has not (an import stopped midway): as they stand.
    ToolCallRecords takeStarted();

    // Both passes over a stream held whole (tests, fuzzing, a stream's first records).
    static CraftBotAssembly assemble(const QVector<EventMdRecord>& records);
    static EventKind canonicalKind(const QString& craftBotKind);

private:
    const CraftBotShape& m_shape;
    QHash<qint32, QString> m_started; // the arguments of each call whose end has not gone by
    QVector<qint32> m_ready;
    QHash<qint32, QString> m_readyArguments;
    QHash<qint32, QString> m_readyResults;
};
