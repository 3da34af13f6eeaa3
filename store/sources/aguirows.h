#pragma once

#include "aguiassembler.h"

#include <deque>
#include <QMap>

// The AG-UI assembler's one row window: the last rows of the log held (a row a line, by its position), the older ones
// gone to the sink, and those a later line changed brought back from it to be written again at the log's end. The
// message, call, run and snapshot parts all change rows through it.
class AguiRows
{
public:
    AguiRows(AguiAssembler::Sink& sink, qsizetype window);
    void setSink(AguiAssembler::Sink& sink) { m_sink = &sink; }

    // A new row held at the next position; returns that position.
    qint64 append();
    // More rows are held than the window keeps (0 keeps them all until the end).
    bool overWindow() const { return m_window > 0 && qsizetype(m_rows.size()) > m_window; }
    bool holdsAny() const { return !m_rows.empty(); }
    // The oldest row held; it is no longer held (settledThrough() moves on).
    StoredEvent takeOldest();
    qint64 settledThrough() const { return m_base - 1; }
    // The row at `i`: held, or brought back from the sink for a change (written again by rewriteRecalled()).
    StoredEvent& row(qint64 i);
    EventRecord& rec(qint64 i) { return row(i).record; }
    // What is wrong at row `i`: a warning on the row (one a line when several), and a problem for the import's report.
    void problem(qint64 i, const QString& what)
    {
        QString& warning = rec(i).warning;
        if (!warning.contains(what))
            warning += (warning.isEmpty() ? QString() : QStringLiteral("\n")) + what;
        m_sink->problem(i, what);
    }
    void settle(StoredEvent&& row) { m_sink->settle(std::move(row)); }

    // The log's end is being assembled: a row brought back from now on is kept as it was before (finishRecalls()).
    void setFinishing() { m_finishing = true; }
    bool isFinishing() const { return m_finishing; }
    // Each row brought back, made what it shows now by `finalize`, written again; none is held back after.
    template <class Finalize>
    void rewriteRecalled(Finalize finalize)
    {
        for (auto it = m_recalled.begin(); it != m_recalled.end(); ++it) {
            finalize(*it);
            m_sink->rewrite(*it);
        }
        m_recalled.clear();
    }
    // Rows a copy taken before the log's end must know as they were before it: held as brought back (written again at
    // the copy's own end), unless the copy still holds them itself.
    void adopt(const QMap<qint64, StoredEvent>& rows);
    const QMap<qint64, StoredEvent>& finishRecalls() const { return m_finishRecalls; }

private:
    AguiAssembler::Sink* m_sink;
    qsizetype m_window;
    std::deque<StoredEvent> m_rows; // the rows held, from m_base on
    qint64 m_base = 0;
    QMap<qint64, StoredEvent> m_recalled; // rows that had left, brought back for a change
    bool m_finishing = false;
    QMap<qint64, StoredEvent> m_finishRecalls; // rows brought back while finishing, as they were before it
};
