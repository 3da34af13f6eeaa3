#include "aguithread.h"

#include "roomfeed.h"

#include <limits>

struct AguiThread::Resume
{
    std::unique_ptr<AguiAssembler> assembler; // before finish(), rebound to the next sync's thread
    qint64 taken = 0;
    bool named = false;
    QVector<qint64> indexes;
    QHash<qsizetype, qint64> callRows; // as the sync left them, after its finish()
    QHash<qsizetype, qint64> runRows;
};

AguiThread::AguiThread(RoomFeed& feed, std::function<QString(qint64 index, qint64 lineNumber)> placeOf,
    std::shared_ptr<const Resume> from)
    : m_feed(feed)
    , m_placeOf(std::move(placeOf))
    , m_assembler(from ? std::make_unique<AguiAssembler>(*from->assembler, *this)
                       : std::make_unique<AguiAssembler>(*this, feed.assemblyWindow()))
    , m_cursor(feed.room().syncedSeq)
{
    m_feed.setStreamed();
    if (from) {
        m_taken = from->taken;
        m_named = from->named;
        m_indexes = from->indexes;
        m_callRows = from->callRows;
        m_runRows = from->runRows;
        // The calls that sync's finish() added (a snapshot's own calls) are made again by this one's, if they still are.
        const qsizetype before = m_assembler->callSlots();
        for (auto it = m_callRows.begin(); it != m_callRows.end();) {
            if (it.key() >= before) {
                m_feed.deleteCall(it.value());
                it = m_callRows.erase(it);
            } else {
                ++it;
            }
        }
    } else if (m_cursor >= 0) {
        // The whole log is assembled again: the calls and runs an earlier import stored are written anew.
        m_feed.deleteCalls();
        m_feed.replaceRuns({});
    }
    m_feed.setBeforeCommit([this] { writeCallsAndRuns(m_assembler->settledThrough()); });
}

AguiThread::~AguiThread()
{
    m_feed.setBeforeCommit({});
}

void AguiThread::keepForResume()
{
    m_kept = std::make_shared<Resume>();
    m_kept->assembler = std::make_unique<AguiAssembler>(*m_assembler, *this);
    m_kept->taken = m_taken;
    m_kept->named = m_named;
    m_kept->indexes = m_indexes;
}

std::shared_ptr<const AguiThread::Resume> AguiThread::resume() const
{
    return m_finished ? m_kept : nullptr;
}

void AguiThread::take(const AguiLine& line, qint64 index)
{
    if (index != m_taken && !m_named) {
        m_named = true;
        m_indexes.reserve(m_taken + 1);
        for (qint64 p = 0; p < m_taken; ++p)
            m_indexes.append(p);
    }
    if (m_named)
        m_indexes.append(index);
    ++m_taken;
    m_lineNumber = line.lineNumber;
    m_assembler->take(line);
}

void AguiThread::finish()
{
    if (m_feed.stopped()) {
        // Cancelled: what was stored stays, with the calls and runs of its rows; the next sync reads on from it.
        m_feed.flushHeld();
        writeCallsAndRuns(m_lastSettled);
        return;
    }
    m_assembler->finish();
    m_feed.flushHeld();
    writeCallsAndRuns(std::numeric_limits<qint64>::max());
    if (m_kept) {
        m_kept->assembler->resumeAfterFinishOf(*m_assembler);
        m_kept->callRows = m_callRows;
        m_kept->runRows = m_runRows;
    }
    // The room's title is the first thing the user asked; its status how the last run ended.
    QString title = m_assembler->firstUserText().simplified();
    if (title.size() > 120)
        title = title.left(119) + QChar(0x2026);
    m_feed.setTitleAndStatus(title, m_assembler->lastRunOutcome());
    if (!m_feed.stopped() && m_taken > 0)
        m_feed.setSynced(indexOf(m_taken - 1));
    m_finished = !m_feed.stopped();
}

StoredEvent AguiThread::named(StoredEvent row) const
{
    row.record.index = indexOf(row.record.index);
    return row;
}

void AguiThread::settle(StoredEvent&& row)
{
    if (m_feed.stopped())
        return;
    m_lastSettled = row.record.index;
    m_feed.place(named(std::move(row)));
}

StoredEvent AguiThread::recall(qint64 position)
{
    const qint64 index = indexOf(position);
    StoredEvent row = m_feed.storedRows(index, index).value(0);
    row.record.index = position;
    return row;
}

void AguiThread::rewrite(const StoredEvent& row)
{
    m_feed.rewrite(named(row));
}

void AguiThread::problem(qint64 position, const QString& what)
{
    if (indexOf(position) > m_cursor)
        m_feed.note(m_placeOf(indexOf(position), m_lineNumber), what);
}

void AguiThread::writeCallsAndRuns(qint64 through)
{
    const auto name = [this](std::optional<qint64>& at) {
        if (at)
            at = indexOf(*at);
    };
    for (AguiAssembler::CallChange& change : m_assembler->takeChangedCalls(through, true)) {
        const qint64 rowId = m_callRows.value(change.slot);
        if (!change.call) {
            if (rowId) {
                m_feed.deleteCall(rowId);
                m_callRows.remove(change.slot);
            }
            continue;
        }
        ToolCallRecord& call = *change.call;
        name(call.startIndex);
        name(call.endIndex);
        name(call.resultIndex);
        m_callRows.insert(change.slot, m_feed.writeCall(call, rowId, change.resultStored));
    }
    for (AguiAssembler::RunChange& change : m_assembler->takeChangedRuns(through)) {
        RunRecord& run = change.run;
        name(run.firstIndex);
        name(run.lastIndex);
        m_runRows.insert(change.slot, m_feed.writeRun(run, m_runRows.value(change.slot)));
    }
}
