#pragma once

#include <functional>
#include <memory>
#include <QObject>
#include <QString>

class PgSessions;
class Workspace;

// One connection to the workspace, on a thread of its own: StoreClient sends it work as functors and gets the
// answers back on the GUI thread. A QtSql connection belongs to the thread that opened it, so the workspace is
// opened, used and closed only on the worker's thread.
class StoreWorker : public QObject
{
    Q_OBJECT
public:
    explicit StoreWorker(QObject* parent = nullptr);
    ~StoreWorker() override;

    // On the worker's thread. open() throws StoreError naming the file.
    void open(const QString& path);
    void close();
    bool isOpen() const { return bool(m_workspace); }
    // Throws StoreError when no workspace is open.
    Workspace& workspace();
    // The PostgreSQL sessions this thread's imports keep between syncs (closed with the workspace).
    PgSessions& pgSessions() { return *m_pgSessions; }

    // Runs `work` and returns what went wrong, or an empty string: a StoreError names its file and place, and
    // no exception of any other kind (memory running out reading a huge record, a library's own error) leaves
    // a worker's slot, where it would end the application.
    static QString guarded(const std::function<void()>& work);

private:
    std::unique_ptr<Workspace> m_workspace;
    std::unique_ptr<PgSessions> m_pgSessions;
};
