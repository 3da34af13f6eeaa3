#include "storeworker.h"

#include "sources/pgsessions.h"

#include "storeerror.h"
#include "workspace.h"

#include <new>
#include <stdexcept>

StoreWorker::StoreWorker(QObject* parent)
    : QObject(parent)
    , m_pgSessions(std::make_unique<PgSessions>())
{
}

StoreWorker::~StoreWorker() = default;

void StoreWorker::open(const QString& path)
{
    // Opened again before each import: the sessions a followed database keeps stay, unless another workspace opens.
    if (m_workspace && m_workspace->path() != path)
        m_pgSessions->closeAll();
    m_workspace.reset();
    m_workspace = std::make_unique<Workspace>(path);
}

void StoreWorker::close()
{
    m_pgSessions->closeAll(); // on this thread, which opened them
    m_workspace.reset();
}

Workspace& StoreWorker::workspace()
{
    if (!m_workspace)
        throw StoreError({}, {}, tr("No workspace is open."));
    return *m_workspace;
}

QString StoreWorker::guarded(const std::function<void()>& work)
{
    try {
        work();
        return {};
    } catch (const StoreError& e) {
        return e.toString();
    } catch (const std::bad_alloc&) {
        return tr("There was not enough memory for this (a source may hold a record too big to read).");
    } catch (const std::exception& e) {
        return tr("Unexpected error: %1").arg(QString::fromLocal8Bit(e.what()));
    } catch (...) {
        return tr("Unexpected error.");
    }
}
