#pragma once

#include <QObject>

class QAction;
class QWidget;
class StoreClient;

// File ▸ Compact Workspace: packs the text a workspace made before packing keeps as written, and writes the file
// anew without its free pages (WorkspaceCompactor), on a store thread, with a progress dialog that can stop it
// after a batch. Nothing a reviewer sees changes. The window pauses following meanwhile (started, finished): a
// sync would wait behind the file being written anew.
class WorkspaceCompaction : public QObject
{
    Q_OBJECT
public:
    WorkspaceCompaction(StoreClient* client, QWidget* window);

    QAction* action() const { return m_action; }
    bool isRunning() const { return m_running; }
    void run();

signals:
    void started();
    void finished();
    void message(const QString& text); // for the status bar: what it did, or why not

private:
    StoreClient* m_client;
    QWidget* m_window;
    QAction* m_action;
    bool m_running = false;
};
