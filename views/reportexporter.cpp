#include "reportexporter.h"

#include "reportmanifest.h"

#include "exportdialog.h"
#include "filterquery.h"
#include "reportexport.h"
#include "reportpreview.h"
#include "reportscope.h"
#include "reviewer.h"
#include "storeclient.h"

#include <atomic>
#include <memory>
#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QProgressDialog>
#include <QWidget>

namespace {
// The preview asked for last; an older one still on the worker stops at its next event (previews of a big room
// are made as the choices change, and only the last is wanted).
std::shared_ptr<std::atomic<quint64>> latestPreview = std::make_shared<std::atomic<quint64>>(0);
} // namespace

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

ExportDialog* ReportExporter::dialog() const
{
    return m_dialog;
}

ReportScope ReportExporter::scopeOf(const Request& request, const ExportDialog& dialog) const
{
    ReportScope scope;
    switch (dialog.rooms()) {
    case ExportDialog::Rooms::Shown:
        scope.roomIds = { request.roomId };
        break;
    case ExportDialog::Rooms::Selected:
        scope.roomIds = request.selectedRooms;
        break;
    case ExportDialog::Rooms::Every:
        scope.roomIds = request.everyRoom;
        break;
    }
    switch (dialog.scope()) {
    case ExportDialog::Scope::Room:
        scope.filter.includeBlocked = true; // every event: a whole room's report leaves none out
        break;
    case ExportDialog::Scope::Filter:
        scope.filter = request.filter;
        break;
    case ExportDialog::Scope::Marked:
        scope.filter.states << QStringLiteral("marked");
        break;
    case ExportDialog::Scope::Range: {
        // The filter language's own term (index:A..B), so that the report's header and manifest say it as the
        // filter bar would.
        const auto [from, to] = dialog.range();
        if (from || to)
            scope.filter.indexes = { NumberRange { from.value_or(0), to.value_or(LLONG_MAX) } };
        break;
    }
    }
    scope.filterText = FilterQuery::format(scope.filter);
    // The reviewer's name, else the login's: a report says who made it.
    scope.author = Reviewer::name();
    scope.version = QStringLiteral(SIGHTLINE_VERSION);
    scope.source = request.source;
    return scope;
}

void ReportExporter::preview(const Request& request, quint64 ticket)
{
    if (!m_dialog)
        return;
    ReportScope scope = scopeOf(request, *m_dialog);
    *latestPreview = ticket;
    scope.eventWritten = [ticket, latest = latestPreview] {
        if (*latest != ticket)
            throw ReportCancelled(QString());
    };
    const QString format = m_dialog->format();
    const bool expanded = m_dialog->expanded();
    const int width = qRound(380 * m_dialog->devicePixelRatioF());
    QPointer<ExportDialog> dialog = m_dialog;
    auto made = std::make_shared<ReportPreview>();
    m_client->run(
        StoreClient::Kind::ReportPreview,
        [=](Workspace& ws, const CancelToken& token) {
            ReportScope stoppable = scope; // a newer preview stops this one between its events, and in its SQL
            stoppable.eventWritten = [ticket, latest = latestPreview, token] {
                if (*latest != ticket || token.isCancelled())
                    throw ReportCancelled(QString());
            };
            *made = ReportPreview::make(ws, stoppable, format, expanded, width);
        },
        this,
        [=] {
            if (dialog)
                dialog->showPreview(ticket, *made);
        },
        [=](const QString& why) {
            if (dialog && *latestPreview == ticket)
                dialog->showPreviewError(ticket, why);
        });
}

void ReportExporter::ask(const Request& request)
{
    if (request.roomId == 0 && request.everyRoom.isEmpty()) {
        emit message(tr("Open a source first: there is nothing to export"));
        return;
    }
    ExportDialog::Context context;
    context.room = request.roomName;
    context.filter = FilterQuery::format(request.filter);
    context.selectedRooms = int(request.selectedRooms.size());
    context.rooms = int(request.everyRoom.size());
    context.selection = request.selection;
    ExportDialog dialog(context, m_window);
    m_dialog = &dialog;
    connect(&dialog, &ExportDialog::previewWanted, this, [this, request](quint64 ticket) { preview(request, ticket); });
    const int answer = dialog.exec();
    *latestPreview = 0; // a preview still being made stops
    if (answer != QDialog::Accepted)
        return;
    ReportScope stoppable = scopeOf(request, dialog);
    const QString format = dialog.format();
    const QString path = dialog.path();
    const bool expanded = dialog.expanded();
    const bool each = dialog.eachRoom();
    const QString key = dialog.signingKey();
    auto written = std::make_shared<QVector<ReportExport::Each>>();
    // Progress and Cancel, for a report that takes a while: shown after half a second, never in the way of the
    // window. The worker counts the steps made and looks at the flag; a cancel leaves the report it was writing
    // unwritten.
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
    auto steps = std::make_shared<qint64>(0);
    stoppable.eventWritten = [=] {
        if (*cancelled)
            throw ReportCancelled(path);
        if (++*steps % 1000 == 0) {
            const int done = int(std::min<qint64>(*steps, std::numeric_limits<int>::max()));
            QMetaObject::invokeMethod(progress, [progress, done] {
                if (progress)
                    progress->setValue(done);
            }, Qt::QueuedConnection);
        }
    };
    m_client->run(
        StoreClient::Kind::Report,
        [=](Workspace& ws, const CancelToken& token) {
            ReportScope scope = stoppable; // another workspace opened stops it as Cancel does
            scope.eventWritten = [step = stoppable.eventWritten, token, path] {
                if (token.isCancelled())
                    throw ReportCancelled(path);
                step();
            };
            const int total = int(std::min<qint64>(ReportExport::steps(ws, scope, format), std::numeric_limits<int>::max()));
            QMetaObject::invokeMethod(progress, [progress, total] {
                if (progress)
                    progress->setMaximum(std::max(1, total));
            }, Qt::QueuedConnection);
            if (each)
                *written = ReportExport::runEach(ws, scope, format, expanded, path, key);
            else
                *written = { { path, ReportExport::run(ws, scope, format, expanded, path, key) } };
        },
        this,
        [=, this] {
            delete progress;
            if (each) {
                qint64 events = 0;
                for (const ReportExport::Each& e : *written)
                    events += e.result.events;
                emit message(tr("Exported %1 reports (%2 events) to %3, each with its manifest, and the set's manifest "
                                "%4%5")
                                 .arg(written->size())
                                 .arg(events)
                                 .arg(QDir::toNativeSeparators(path),
                                     QFileInfo(ReportManifest::setPathFor(path)).fileName(),
                                     key.isEmpty() ? QString() : tr(", signed")));
            } else {
                const ReportExport::Result& result = written->constFirst().result;
                const QString events = result.events == 1 ? tr("1 event") : tr("%1 events").arg(result.events);
                emit message(result.signature.isEmpty()
                        ? tr("Exported %1 to %2 (its manifest: %3)").arg(events, path, result.manifest)
                        : tr("Exported %1 to %2 (its manifest: %3, signed)").arg(events, path, result.manifest));
            }
            emit exported(path);
        },
        [=, this](const QString& why) {
            delete progress;
            // Still running (the client answered for it when another source was opened): it stops at its next
            // event and writes nothing.
            const bool byUser = *cancelled;
            const bool stoppedByOpen = !byUser && why.startsWith(QLatin1String("stopped:"));
            *cancelled = true;
            if (stoppedByOpen)
                emit message(tr("Export cancelled: another source was opened; %1 was not written").arg(path));
            else if (byUser && each)
                emit message(tr("Export cancelled: the reports written to %1 before it stay, each whole").arg(path));
            else
                emit message(byUser ? tr("Export cancelled: %1 was not written").arg(path)
                                    : tr("The report was not written: %1").arg(why));
        });
}
