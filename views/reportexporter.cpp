#include "reportexporter.h"

#include "exportdialog.h"
#include "filterquery.h"
#include "reportexport.h"
#include "storeclient.h"

#include <atomic>
#include <memory>
#include <QPointer>
#include <QProgressDialog>
#include <QSettings>
#include <QWidget>

ReportExporter::ReportExporter(StoreClient* client, QWidget* window)
    : QObject(window)
    , m_client(client)
    , m_window(window)
{
}

QProgressDialog* ReportExporter::progress() const
{
    return m_progress;
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
    // Progress and Cancel, for a report that takes a while: shown after half a second, never in the way of the
    // window. The worker counts the events written and looks at the flag; a cancel leaves nothing written.
    auto cancelled = std::make_shared<std::atomic_bool>(false);
    QPointer<QProgressDialog> progress = new QProgressDialog(tr("Exporting to %1…").arg(path), tr("Cancel"), 0, 0, m_window);
    progress->setWindowTitle(tr("Export Report"));
    progress->setWindowModality(Qt::NonModal);
    progress->setMinimumDuration(500);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    connect(progress, &QProgressDialog::canceled, this, [cancelled] { *cancelled = true; });
    m_progress = progress;
    emit message(tr("Exporting to %1…").arg(path));
    auto written = std::make_shared<qint64>(0);
    scope.eventWritten = [=] {
        if (*cancelled)
            throw ReportCancelled(path);
        if (++*written % 1000 == 0) {
            const int done = int(std::min<qint64>(*written, std::numeric_limits<int>::max()));
            QMetaObject::invokeMethod(progress, [progress, done] {
                if (progress)
                    progress->setValue(done);
            }, Qt::QueuedConnection);
        }
    };
    m_client->run(
        [=](Workspace& ws) {
            const int total = int(std::min<qint64>(ReportExport::count(ws, scope), std::numeric_limits<int>::max()));
            QMetaObject::invokeMethod(progress, [progress, total] {
                if (progress)
                    progress->setMaximum(std::max(1, total));
            }, Qt::QueuedConnection);
            *result = ReportExport::run(ws, scope, format, expanded, path, key);
        },
        this,
        [=, this] {
            delete progress;
            const QString events = result->events == 1 ? tr("1 event") : tr("%1 events").arg(result->events);
            emit message(result->signature.isEmpty()
                    ? tr("Exported %1 to %2 (its manifest: %3)").arg(events, path, result->manifest)
                    : tr("Exported %1 to %2 (its manifest: %3, signed)").arg(events, path, result->manifest));
            emit exported(path);
        },
        [=, this](const QString& why) {
            delete progress;
            emit message(*cancelled ? tr("Export cancelled: %1 was not written").arg(path)
                                    : tr("The report was not written: %1").arg(why));
        });
}
