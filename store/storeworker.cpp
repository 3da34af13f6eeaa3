#include "storeworker.h"

#include "storeerror.h"
#include "workspace.h"

#include <new>
#include <stdexcept>

StoreWorker::StoreWorker(QObject* parent)
    : QObject(parent)
{
}

StoreWorker::~StoreWorker() = default;

void StoreWorker::open(const QString& path)
{
    m_workspace.reset();
    m_workspace = std::make_unique<Workspace>(path);
}

void StoreWorker::close()
{
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
