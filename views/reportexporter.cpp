#include "reportexporter.h"

#include "exportdialog.h"
#include "filterquery.h"
#include "reportexport.h"
#include "storeclient.h"

#include <memory>
#include <QSettings>
#include <QWidget>

ReportExporter::ReportExporter(StoreClient* client, QWidget* window)
    : QObject(window)
    , m_client(client)
    , m_window(window)
{
}

void ReportExporter::ask(qint64 roomId, const QString& roomName, const EventFilter& filter,
    const QVector<qint64>& everyRoom, const QString& source)
{
    if (roomId == 0 && everyRoom.isEmpty()) {
        emit message(tr("Open a source first: there is nothing to export"));
        return;
    }
    ExportDialog dialog(roomName, FilterQuery::format(filter), m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    ReportScope scope;
    scope.roomIds = dialog.everyRoom() || roomId == 0 ? everyRoom : QVector<qint64> { roomId };
    if (dialog.scope() == ExportDialog::Scope::Filter)
        scope.filter = filter;
    else if (dialog.scope() == ExportDialog::Scope::Marked)
        scope.filter.states << QStringLiteral("marked");
    scope.filterText = FilterQuery::format(scope.filter);
    // The reviewer's name, else the login's: a report says who made it.
    scope.author = QSettings().value(QStringLiteral("editor/author")).toString();
    if (scope.author.isEmpty())
        scope.author = qEnvironmentVariable("USER", qEnvironmentVariable("LOGNAME"));
    scope.version = QStringLiteral(SIGHTLINE_VERSION);
    scope.source = source;
    const QString format = dialog.format();
    const QString path = dialog.path();
    const bool expanded = dialog.expanded();
    const QString key = dialog.signingKey();
    auto result = std::make_shared<ReportExport::Result>();
    emit message(tr("Exporting to %1…").arg(path));
    m_client->run([=](Workspace& ws) { *result = ReportExport::run(ws, scope, format, expanded, path, key); }, this,
        [=, this] {
            const QString events = result->events == 1 ? tr("1 event") : tr("%1 events").arg(result->events);
            emit message(result->signature.isEmpty()
                    ? tr("Exported %1 to %2 (its manifest: %3)").arg(events, path, result->manifest)
                    : tr("Exported %1 to %2 (its manifest: %3, signed)").arg(events, path, result->manifest));
            emit exported(path);
        },
        [this](const QString& why) { emit message(tr("The report was not written: %1").arg(why)); });
}
