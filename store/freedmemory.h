#pragma once

#include <QElapsedTimer>

// Gives the memory the process freed back to the system, at most once per interval.
//
// glibc's allocator keeps what a thread frees in that thread's arena (64 MB heaps each) and returns only the free
// space at a heap's very top. An import frees as much as it allocates, batch after batch, on the importer's and
// the reading threads: the window that read a ten-million-event store in the background held 425 MB at its peak,
// 250 MB of it in those arenas while the live heap stayed near 100 MB. malloc_trim(0) hands back every free page of
// every arena (a few milliseconds); once a second after a batch's commit kept the same read under 300 MB.
class FreedMemory
{
public:
    explicit FreedMemory(int intervalMs = 1000);
    // Called as often as wanted (each commit): trims when the interval has passed since the last trim.
    void giveBack();
    int trims() const { return m_trims; }

private:
    int m_intervalMs;
    int m_trims = 0;
    QElapsedTimer m_since;
};
