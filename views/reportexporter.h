#pragma once

#include "eventfilter.h"

#include <QObject>
#include <QPointer>
#include <QVector>

class QProgressDialog;
class StoreClient;
class QWidget;

// File ▸ Export Report…: asks what and where (ExportDialog), then writes the report and its manifest on the
// store's worker (ReportExport), and says in the status bar what it wrote, or why not.
class ReportExporter : public QObject
{
    Q_OBJECT
public:
    ReportExporter(StoreClient* client, QWidget* window);

    // The room shown (its id and name), the filter applied, every room of the workspace, and where it came from.
    void ask(qint64 roomId, const QString& roomName, const EventFilter& filter, const QVector<qint64>& everyRoom,
        const QString& source);
    QProgressDialog* progress() const; // the export under way's, while it runs

signals:
    void message(const QString& text);
    void exported(const QString& path); // written, with its manifest

private:
    StoreClient* m_client;
    QWidget* m_window;
    QPointer<QProgressDialog> m_progress;
};
