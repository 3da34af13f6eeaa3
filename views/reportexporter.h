#pragma once

#include "eventfilter.h"

#include <optional>
#include <utility>

#include <QObject>
#include <QPointer>
#include <QVector>

class ExportDialog;
class QProgressDialog;
class StoreClient;
class QWidget;
struct ReportScope;

// File ▸ Export Report…: asks what and where (ExportDialog, with a preview made on the store's worker), then
// writes the report (or a report per room) and its manifest on the worker (ReportExport), and says in the status
// bar what it wrote, or why not.
class ReportExporter : public QObject
{
    Q_OBJECT
public:
    ReportExporter(StoreClient* client, QWidget* window);

    // What the window shows when the user asks for a report.
    struct Request
    {
        qint64 roomId = 0; // the room shown; 0: none
        QString roomName;
        QString source; // where the room shown came from
        EventFilter filter; // the filter applied
        QVector<qint64> selectedRooms; // in the room list
        QVector<qint64> everyRoom;
        std::optional<std::pair<qint64, qint64>> selection; // the selected events' first and last index
    };
    void ask(const Request& request);
    QProgressDialog* progress() const; // the export under way's, while it runs
    ExportDialog* dialog() const; // the dialog while it asks

signals:
    void message(const QString& text);
    void exported(const QString& path); // written, with its manifest (the folder, for a report per room)

private:
    ReportScope scopeOf(const Request& request, const ExportDialog& dialog) const;
    void preview(const Request& request, quint64 ticket);

    StoreClient* m_client;
    QWidget* m_window;
    QPointer<QProgressDialog> m_progress;
    QPointer<ExportDialog> m_dialog;
};
