#include "workspacecompaction.h"

#include "storeclient.h"
#include "workspace.h"
#include "workspacecompactor.h"

#include <atomic>
#include <memory>
#include <QAction>
#include <QLocale>
#include <QProgressDialog>
#include <QWidget>

WorkspaceCompaction::WorkspaceCompaction(StoreClient* client, QWidget* window)
    : QObject(window)
    , m_client(client)
    , m_window(window)
    , m_action(new QAction(tr("&Compact Workspace…"), this))
{
    m_action->setStatusTip(tr("Store the workspace's text packed, as new imports do (a workspace made before 3 December "
                              "2026 keeps it as written), and rewrite the file without its unused space; what it "
                              "shows does not change"));
    connect(m_action, &QAction::triggered, this, &WorkspaceCompaction::run);
}

void WorkspaceCompaction::run()
{
    if (m_running)
        return;
    if (m_client->workspacePath().isEmpty()) {
        emit message(tr("No workspace is open."));
        return;
    }
    if (m_client->isImporting()) {
        emit message(tr("The workspace is still importing: compact it once the import is done."));
        return;
    }
    m_running = true;
    m_action->setEnabled(false);
    emit started();
    auto stop = std::make_shared<std::atomic<bool>>(false);
    auto result = std::make_shared<WorkspaceCompactor::Result>();
    auto* progress = new QProgressDialog(tr("Packing the workspace's text…"), tr("Stop"), 0, 1000, m_window);
    progress->setWindowTitle(tr("Compact Workspace"));
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(0);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    progress->setValue(0);
    connect(progress, &QProgressDialog::canceled, this, [stop, progress] {
        stop->store(true);
        progress->setLabelText(tr("Stopping after this batch…"));
        progress->show(); // QProgressDialog hides itself when cancelled: it stays until the batch is written
    });
    const auto done = [this, progress](const QString& text) {
        progress->deleteLater();
        m_running = false;
        m_action->setEnabled(true);
        emit finished();
        emit message(text);
    };
    const auto size = [](qint64 bytes) { return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat); };
    m_client->run(
        StoreClient::Kind::Compaction,
        [stop, result, progress](Workspace& ws, const CancelToken& token) {
            *result = WorkspaceCompactor(ws).run([&](qint64 at, qint64 total) {
                // The dialog lives until this task's answer is back: queued calls made before then find it.
                QMetaObject::invokeMethod(
                    progress,
                    [progress, at, total] {
                        progress->setValue(total > 0 ? int(at * 1000 / total) : 1000);
                        if (at >= total) {
                            // One transaction from here on: nothing to stop after.
                            progress->setLabelText(tr("Writing the workspace anew…"));
                            progress->setCancelButton(nullptr);
                        }
                    },
                    Qt::QueuedConnection);
                return !stop->load() && !token.isCancelled(); // Cancel, or another workspace opened
            });
        },
        this,
        [done, result, size] {
            if (result->stopped)
                done(tr("Compaction stopped: the %1 rows packed so far stay packed, and the workspace reads the same; "
                        "the file shrinks once a compaction runs to its end")
                         .arg(QLocale().toString(result->packed)));
            else if (result->packed == 0 && result->bytesAfter * 50 >= result->bytesBefore * 49)
                done(tr("The workspace was already compact (%1)").arg(size(result->bytesAfter)));
            else
                done(tr("Workspace compacted: %1 → %2 (%3 rows packed)")
                         .arg(size(result->bytesBefore), size(result->bytesAfter), QLocale().toString(result->packed)));
        },
        [done](const QString& why) { done(tr("The workspace was not compacted: %1").arg(why)); });
}
