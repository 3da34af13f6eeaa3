#pragma once

#include "../storeerror.h"

#include <QString>

// Another import holds the workspace: the message names it (its process and host).
class WorkspaceBusy : public StoreError
{
public:
    using StoreError::StoreError;
};

// One import at a time into a workspace. SQLite lets two writers take turns batch by batch, but two imports of
// one source would each pair the same calls and write them twice: the second one is told who holds the
// workspace instead.
//
// The lock is the kernel's (flock on a file beside the workspace), so it dies with its process: an import killed
// at any moment (SIGKILL, the OOM killer, a power cut) never leaves a lock that outlives it. QLockFile, used
// before, judged staleness from the pid it wrote and a second ".rmlock" file of its own; a process killed inside
// that dance left the workspace refused to every import for half a minute. The file's text (pid, host) only
// names the holder in the message.
class ImportLock
{
public:
    // Throws WorkspaceBusy naming the workspace and the process holding it, or StoreError when the lock file
    // cannot be made (a folder that cannot be written).
    explicit ImportLock(const QString& workspacePath);
    ~ImportLock();
    ImportLock(const ImportLock&) = delete;
    ImportLock& operator=(const ImportLock&) = delete;

    static QString lockPath(const QString& workspacePath);

private:
    QString m_path;
    int m_fd = -1;
};
