#pragma once

#include "../storeerror.h"

#include <QLockFile>
#include <QString>

// Another import holds the workspace: the message names it (its process and host).
class WorkspaceBusy : public StoreError
{
public:
    using StoreError::StoreError;
};

// One import at a time into a workspace. SQLite lets two writers take turns batch by batch, but two imports of
// one source would each pair the same calls and write them twice: the second one is told who holds the
// workspace instead. A lock file beside the workspace (QLockFile: a lock whose process died, as after a kill,
// is taken over).
class ImportLock
{
public:
    // Throws WorkspaceBusy naming the workspace and the process holding it.
    explicit ImportLock(const QString& workspacePath);

    static QString lockPath(const QString& workspacePath);

private:
    QLockFile m_lock;
};
