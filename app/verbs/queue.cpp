#include "clisession.h"

#include "annotationstore.h"
#include "team/teamstore.h"
#include "timeutil.h"
#include "workspace.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

namespace Cli {

namespace {

QString when(qint64 ms)
{
    return ms > 0 ? TimeUtil::formatMicros(ms / 1000 * 1000000) : QString(); // to the second
}

// "2 done, 1 in review, 9 left", and each reviewer's share.
QString progress(const TeamQueue& q)
{
    QString text = QStringLiteral("%1 %2: %3 done, %4 in review, %5 left")
                       .arg(q.rooms)
                       .arg(q.rooms == 1 ? QStringLiteral("room") : QStringLiteral("rooms"))
                       .arg(q.done)
                       .arg(q.inReview)
                       .arg(q.left());
    QStringList shares;
    for (auto it = q.byReviewer.cbegin(); it != q.byReviewer.cend(); ++it) {
        QStringList parts;
        if (it->done > 0)
            parts << QStringLiteral("%1 done").arg(it->done);
        if (it->inReview > 0)
            parts << QStringLiteral("%1 in review").arg(it->inReview);
        shares << it.key() + QLatin1Char(' ') + parts.join(QStringLiteral(", "));
    }
    if (!shares.isEmpty())
        text += QStringLiteral(" (") + shares.join(QStringLiteral("; ")) + QLatin1Char(')');
    return text;
}

// The workspace's room of a queue's room, when this copy has it (a queue made from another source may name rooms
// this one lacks).
std::optional<qint64> localRoom(Workspace& ws, const TeamQueueRoom& r)
{
    for (const RoomSummary& s : ws.rooms()) {
        if (s.system == r.system && s.nativeId == r.room)
            return s.id;
    }
    return std::nullopt;
}

} // namespace

int Session::queue(const QStringList& args)
{
    QCommandLineParser parser;
    parse(parser, args, QStringLiteral("queue"));
    const QStringList positional = parser.positionalArguments();
    const QString action = positional.value(0);
    static const QStringList actions { QStringLiteral("create"), QStringLiteral("list"), QStringLiteral("next"),
        QStringLiteral("done") };
    if (!actions.contains(action))
        usage(QStringLiteral("queue takes one of: %1 (not '%2')").arg(actions.join(QStringLiteral(", ")), action));
    if (positional.size() != 2)
        usage(QStringLiteral("queue %1 takes one SOURCE (the store or log the queue's rooms come from)").arg(action));
    const QString source = positional.at(1);
    const QString name = parser.value(QStringLiteral("name")).trimmed();
    if (name.isEmpty() && action != QLatin1String("list"))
        usage(QStringLiteral("queue %1 takes --name NAME").arg(action));
    for (const char* option : { "query", "instructions", "reviewer", "lock" }) {
        if (action != QLatin1String("create") && parser.isSet(QLatin1String(option)))
            usage(QStringLiteral("--%1 is for queue create").arg(QLatin1String(option)));
    }
    if (parser.isSet(QStringLiteral("room")) && action != QLatin1String("done"))
        usage(QStringLiteral("--room is for queue done (next hands the rooms out)"));
    const bool json = parser.isSet(QStringLiteral("json"));
    int lockMinutes = 30;
    if (parser.isSet(QStringLiteral("lock"))) {
        bool ok = false;
        lockMinutes = parser.value(QStringLiteral("lock")).toInt(&ok);
        if (!ok || lockMinutes < 1 || lockMinutes > 7 * 24 * 60)
            usage(QStringLiteral("--lock takes minutes, from 1 to 10080 (a week), not '%1'").arg(parser.value(QStringLiteral("lock"))));
    }
    // The filter is checked before anything is read or connected.
    const bool filtered = !parser.value(QStringLiteral("query")).trimmed().isEmpty();
    const EventFilter filter = filterOf(parser);

    // Making a queue matches the filter against every room's events, so they are read; the rest only lists them.
    // done --room reads the room it names, to know it by a part of its id.
    auto ws = openSource(source, forcedFormat(parser),
        action == QLatin1String("create") && filtered ? std::nullopt
            : parser.isSet(QStringLiteral("room"))    ? roomsAsked(parser)
                                                      : std::optional<QStringList>(QStringList()));
    if (!TeamSync::attached(*ws) && !parser.isSet(QStringLiteral("team"))) {
        usage(QStringLiteral("a queue lives in a team store: give --team URI (the workspace stays attached to it), or "
                             "attach it with `sightline team attach %1 --team URI`")
                  .arg(source));
    }
    TeamStore* team = joinTeam(*ws, parser, QStringLiteral("a queue lives in the team store: nothing was done"));
    if (!team)
        return Cli::Error;
    const QString who = action == QLatin1String("next") || action == QLatin1String("done") ? author(parser) : QString();

    if (action == QLatin1String("create")) {
        TeamQueue q;
        q.name = name;
        q.query = parser.value(QStringLiteral("query")).trimmed();
        q.instructions = parser.value(QStringLiteral("instructions")).trimmed();
        q.lockSeconds = lockMinutes * 60;
        for (const QString& login : parser.values(QStringLiteral("reviewer")))
            q.reviewers << login.trimmed();
        QVector<std::pair<QString, QString>> rooms;
        PageRequest one;
        one.limit = 1;
        const QVector<RoomSummary> all = ws->rooms();
        for (const RoomSummary& r : all) {
            if (!filtered || ws->countEvents(r.id, filter, one) > 0)
                rooms.append({ r.system, r.nativeId });
        }
        if (rooms.isEmpty()) {
            throw StoreError(source, {},
                QStringLiteral("no room of its %1 has an event that matches %2: no queue was made").arg(all.size()).arg(q.query));
        }
        team->createQueue(q, rooms);
        m_out << "queue \"" << name << "\": " << rooms.size() << " of " << all.size() << " rooms"
              << (filtered ? QStringLiteral(" (those with events that match %1)").arg(q.query) : QString())
              << "; taken by " << (q.reviewers.isEmpty() ? QStringLiteral("every reviewer") : q.reviewers.join(QStringLiteral(", ")))
              << ", each held for " << lockMinutes << " min" << Qt::endl;
        return Cli::Ok;
    }

    if (action == QLatin1String("list")) {
        if (!name.isEmpty()) {
            for (const TeamQueueRoom& r : team->queueRooms(name)) {
                if (json) {
                    m_out << line({ { QStringLiteral("position"), r.position }, { QStringLiteral("id"), r.room },
                                      { QStringLiteral("system"), r.system },
                                      { QStringLiteral("state"), TeamQueueRoom::stateName(r.state) },
                                      { QStringLiteral("author"), orNull(r.author) }, { QStringLiteral("login"), orNull(r.login) },
                                      { QStringLiteral("until"), orNull(when(r.untilMs)) },
                                      { QStringLiteral("done_at"), orNull(when(r.doneMs)) } })
                          << '\n';
                    continue;
                }
                m_out << r.position << "  " << r.room << "  " << TeamQueueRoom::stateName(r.state);
                if (r.state == TeamQueueRoom::State::InReview)
                    m_out << " by " << r.author << " (" << r.login << ") until " << when(r.untilMs);
                else if (r.state == TeamQueueRoom::State::Done)
                    m_out << " by " << r.author << " (" << r.login << ") at " << when(r.doneMs);
                m_out << '\n';
            }
            m_out.flush();
            return Cli::Ok;
        }
        const TeamQueues queues = team->queues();
        for (const TeamQueue& q : queues) {
            if (json) {
                QJsonObject shares;
                for (auto it = q.byReviewer.cbegin(); it != q.byReviewer.cend(); ++it)
                    shares.insert(it.key(), QJsonObject { { QStringLiteral("done"), it->done }, { QStringLiteral("in_review"), it->inReview } });
                m_out << line({ { QStringLiteral("name"), q.name }, { QStringLiteral("query"), q.query },
                                  { QStringLiteral("instructions"), q.instructions },
                                  { QStringLiteral("reviewers"), QJsonArray::fromStringList(q.reviewers) },
                                  { QStringLiteral("lock_minutes"), q.lockSeconds / 60 }, { QStringLiteral("rooms"), q.rooms },
                                  { QStringLiteral("done"), q.done }, { QStringLiteral("in_review"), q.inReview },
                                  { QStringLiteral("left"), q.left() }, { QStringLiteral("by_reviewer"), shares },
                                  { QStringLiteral("created_by"), q.createdBy },
                                  { QStringLiteral("created_at"), when(q.createdMs) } })
                      << '\n';
                continue;
            }
            m_out << q.name << "  " << progress(q) << '\n';
            if (!q.query.isEmpty())
                m_out << "  rooms with events that match: " << q.query << '\n';
            if (!q.instructions.isEmpty())
                m_out << "  instructions: " << q.instructions << '\n';
            m_out << "  taken by " << (q.reviewers.isEmpty() ? QStringLiteral("every reviewer") : q.reviewers.join(QStringLiteral(", ")))
                  << ", each held for " << q.lockSeconds / 60 << " min; made by " << q.createdBy << " at "
                  << when(q.createdMs) << '\n';
        }
        if (queues.isEmpty() && !json)
            m_err << "the team store has no queue " << team->login() << " may see: an admin makes one with `sightline queue "
                  << "create SOURCE --name NAME --query FILTER`" << Qt::endl;
        m_out.flush();
        return Cli::Ok;
    }

    team->requireWriter();
    if (action == QLatin1String("next")) {
        const std::optional<TeamQueueRoom> next = team->nextInQueue(name, who);
        if (!next) {
            const TeamQueues queues = team->queues();
            for (const TeamQueue& q : queues) {
                if (q.name == name)
                    m_err << "queue \"" << name << "\": nothing left for you (" << progress(q) << ")" << Qt::endl;
            }
            return Cli::Ok;
        }
        // Taking a room is starting its review: the team sees it in review (the status goes up with the journal).
        const std::optional<qint64> room = localRoom(*ws, *next);
        if (room) {
            AnnotationStore store(*ws);
            const QString status = store.review(*room) ? store.review(*room)->value : ReviewStatus::Unreviewed;
            if (status == ReviewStatus::Unreviewed)
                store.saveOnly(store.setReview(*room, ReviewStatus::InReview, who));
            syncTeam(*ws, *team);
        }
        QString instructions;
        for (const TeamQueue& q : team->queues()) {
            if (q.name == name)
                instructions = q.instructions;
        }
        if (json) {
            m_out << line({ { QStringLiteral("id"), next->room }, { QStringLiteral("system"), next->system },
                              { QStringLiteral("queue"), name }, { QStringLiteral("position"), next->position },
                              { QStringLiteral("until"), when(next->untilMs) }, { QStringLiteral("instructions"), instructions },
                              { QStringLiteral("in_this_workspace"), room.has_value() } })
                  << Qt::endl;
        } else {
            m_out << next->room << '\n'
                  << "  queue \"" << name << "\", room " << next->position << "; yours until " << when(next->untilMs)
                  << ": `sightline queue done " << source << " --name " << name << "` when finished" << Qt::endl;
            if (!instructions.isEmpty())
                m_out << "  instructions: " << instructions << Qt::endl;
        }
        if (!room) {
            m_err << "sightline: this workspace holds no room " << next->room << " (" << next->system
                  << "): the queue was made from another source" << Qt::endl;
        }
        return Cli::Ok;
    }

    // done
    std::optional<std::pair<QString, QString>> given;
    if (parser.isSet(QStringLiteral("room"))) {
        const qint64 id = roomId(*ws, source, parser);
        given = std::pair { ws->room(id)->system, ws->room(id)->nativeId };
    }
    const TeamQueueRoom done = team->doneInQueue(name, given, who);
    if (done.login != team->login()) {
        m_out << done.room << ": done already in queue \"" << name << "\", by " << done.author << " (" << done.login
              << ") at " << when(done.doneMs) << Qt::endl;
        return Cli::Ok;
    }
    if (const std::optional<qint64> room = localRoom(*ws, done)) {
        AnnotationStore store(*ws);
        store.saveOnly(store.setReview(*room, ReviewStatus::Done, who));
        syncTeam(*ws, *team);
    }
    for (const TeamQueue& q : team->queues()) {
        if (q.name == name)
            m_out << done.room << ": done in queue \"" << name << "\" (" << progress(q) << ")" << Qt::endl;
    }
    return Cli::Ok;
}

// What `sightline queue` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::queueSpec()
{
    return VerbSpec { QStringLiteral("queue"), QStringLiteral("ACTION SOURCE"),
        QStringLiteral("Share out a team's rooms to review (a team store, --team or attached). create: an admin makes a "
                       "queue of the rooms with events that match --query (every room without). list: each queue "
                       "and the team's progress in it; with --name, its rooms and who has them. next: the room you "
                       "review next, its id on the first line, held for you for the queue's lock time (and set in "
                       "review). done: finishes the room you hold (or --room), and sets its review done."),
        roomOptions() + QList<QCommandLineOption> { { QStringLiteral("name"), QStringLiteral("the queue"), QStringLiteral("NAME") },
            { QStringLiteral("query"), QStringLiteral("create: the rooms with an event that matches this filter"), QStringLiteral("FILTER") },
            { QStringLiteral("instructions"), QStringLiteral("create: what reviewers are asked to do"), QStringLiteral("TEXT") },
            { QStringLiteral("reviewer"), QStringLiteral("create: a login that may take rooms from it (again for more; none: every reviewer)"),
                QStringLiteral("LOGIN") },
            { QStringLiteral("lock"), QStringLiteral("create: how long a room stays with the reviewer who took it (default 30)"),
                QStringLiteral("MINUTES") },
            { QStringLiteral("author"), QStringLiteral("who signs it (default: the name the window asked for, else the team store's login, else the login name)"),
                QStringLiteral("NAME") },
            { QStringLiteral("json"), QStringLiteral("one JSON object per line") }, teamOption() },
        QStringLiteral("create|list|next|done SOURCE --name NAME [--query FILTER] [--team URI]"),
        QStringLiteral("share out rooms to review through a team store"), &Session::queue };
}

} // namespace Cli
