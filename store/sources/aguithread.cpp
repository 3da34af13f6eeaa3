#include "aguithread.h"

#include "../eventkind.h"
#include "aguiassembler.h"
#include "roomfeed.h"

#include <algorithm>
#include <QSet>

namespace AguiThread {

void write(const QVector<AguiLine>& lines, const QVector<qint64>& indexes,
    const std::function<QString(qsizetype position)>& placeOf, const RoomCursor& cursor, RoomFeed& feed)
{
    const AguiAssembly assembly = AguiAssembler::assemble(lines, indexes);
    // Rows are in the source's order, so a row is found by its index with a binary search.
    const auto rowAt = [&](qint64 index) -> const StoredEvent& {
        return *std::lower_bound(assembly.rows.cbegin(), assembly.rows.cend(), index,
            [](const StoredEvent& row, qint64 i) { return row.record.index < i; });
    };
    const auto positionOf = [&](qint64 index) { return &rowAt(index) - assembly.rows.constData(); };
    for (const auto& [index, problem] : assembly.problems) {
        if (index > cursor.syncedSeq)
            feed.note(placeOf(positionOf(index)), problem);
    }
    feed.addAfterCursor(assembly.rows);
    // Rows stored by an earlier sync whose text depends on later events: the rows that show a message, a user
    // message, or a call's arguments.
    QSet<qint64> refresh;
    for (const AguiMessage& m : assembly.messages)
        refresh.insert(m.firstIndex);
    for (const ToolCallRecord& c : assembly.calls) {
        if (c.startIndex)
            refresh.insert(*c.startIndex);
    }
    for (const StoredEvent& row : assembly.rows) {
        if (row.record.type == QLatin1String("CUSTOM") && row.record.kind == EventKind::Message)
            refresh.insert(row.record.index);
    }
    for (qint64 index : std::as_const(refresh)) {
        if (index <= cursor.syncedSeq)
            feed.refreshRow(rowAt(index));
    }
    // Rows whose flags or group later events changed: a closer found synthetic at its run's end, an end folded.
    feed.refreshStored(assembly.rows, cursor.syncedSeq);
    feed.replaceCalls(assembly.calls);
    feed.replaceRuns(assembly.runs);
    // The room's title is the first thing the user asked; its status how the last run ended.
    QString title = assembly.firstUserText.simplified();
    if (title.size() > 120)
        title = title.left(119) + QChar(0x2026);
    feed.setTitleAndStatus(title, assembly.lastRunOutcome);
    if (!feed.stopped() && !assembly.rows.isEmpty())
        feed.setSynced(assembly.rows.constLast().record.index);
}

} // namespace AguiThread
