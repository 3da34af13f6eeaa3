#include "freedmemory.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

FreedMemory::FreedMemory(int intervalMs)
    : m_intervalMs(intervalMs)
{
}

void FreedMemory::giveBack()
{
    if (m_since.isValid() && m_since.elapsed() < m_intervalMs)
        return;
    m_since.start();
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
    ++m_trims;
}
