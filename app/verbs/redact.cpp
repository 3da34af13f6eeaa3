#include "clisession.h"

#include "annotationstore.h"
#include "redactionpatterns.h"
#include "redactionstore.h"
#include "sources/importlock.h"
#include "team/teamstore.h"
#include "workspace.h"

#include <algorithm>
#include <QCommandLineParser>
#include <optional>
#include <QJsonObject>

namespace Cli {

int Session::redact(const QStringList& args)
{
    QCommandLineParser parser;
    parse(parser, args, QStringLiteral("redact"));
    const QString source = single(parser);
    const bool all = parser.isSet(QStringLiteral("all-rooms"));
    if (all == parser.isSet(QStringLiteral("room")))
        usage(QStringLiteral("give either --room ID or --all-rooms"));
    QVector<RedactionPatterns::Pattern> patterns;
    QString error;
    for (const QString& expression : parser.values(QStringLiteral("pattern"))) {
        const auto p = RedactionPatterns::custom(expression, &error);
        if (p.isEmpty())
            usage(QStringLiteral("--pattern '%1': %2").arg(expression, error));
        patterns += p;
    }
    if (parser.isSet(QStringLiteral("builtin"))) {
        // --builtin email --builtin card is --builtin email,card: the last one alone was taken before.
        const auto p = RedactionPatterns::builtin(
            parser.values(QStringLiteral("builtin")).join(QLatin1Char(',')).split(QLatin1Char(','), Qt::SkipEmptyParts), &error);
        if (p.isEmpty())
            usage(QStringLiteral("--builtin: %1").arg(error.isEmpty() ? QStringLiteral("name one") : error));
        patterns += p;
    }
    if (patterns.isEmpty())
        usage(QStringLiteral("give --pattern REGEX or --builtin email,phone,card,secret"));
    const bool dryRun = parser.isSet(QStringLiteral("dry-run"));
    const QString reason = parser.value(QStringLiteral("reason")).simplified();
    if (!dryRun && reason.isEmpty())
        usage(QStringLiteral("--reason TEXT is required (it is what the placeholder and the ledger say)"));
    auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
    // No import writes it meanwhile (a window following its source): the rows it had not written yet would
    // come in clear, after a redaction that said it was done. Said, and nothing done.
    std::optional<ImportLock> lock;
    if (!dryRun)
        lock.emplace(ws->path());
    // Shared with the team: every teammate's copy is cut at its next sync. An auditor is refused before anything.
    TeamStore* team = nullptr;
    if (!dryRun) {
        team = joinTeam(*ws, parser,
            QStringLiteral("the redaction is made here and goes to the team at the next sync; until then teammates' copies "
                           "keep the text"));
        if (team)
            team->requireWriter();
    }
    const QString who = dryRun ? QString() : author(parser); // the team login when no name is given
    const qint64 room = all ? 0 : roomId(*ws, source, parser);
    const RedactionMatches found = RedactionStore(*ws).find(room, patterns);
    const bool json = parser.isSet(QStringLiteral("json"));
    // A dry run shows what would go; a redaction says where, never the text it removed.
    for (const RedactionMatch& m : found) {
        if (json) {
            // A note on the room itself has no index.
            const bool roomNote = m.path == QLatin1String("@note") && m.index < 0;
            QJsonObject o { { QStringLiteral("room"), m.room }, { QStringLiteral("index"), roomNote ? QJsonValue() : QJsonValue(m.index) },
                { QStringLiteral("path"), m.path }, { QStringLiteral("start"), m.start },
                { QStringLiteral("length"), m.length }, { QStringLiteral("pattern"), m.pattern } };
            if (dryRun)
                o.insert(QStringLiteral("text"), m.text);
            m_out << line(o) << '\n';
        } else {
            m_out << m.room << "  " << (m.path == QLatin1String("@note") && m.index < 0 ? QStringLiteral("room") : QString::number(m.index))
                  << "  " << (m.path.isEmpty() ? QStringLiteral("(text)") : m.path) << " [" << m.start << ", " << m.start + m.length
                  << ")  " << m.pattern
                  << (dryRun ? QStringLiteral("  \"%1\"").arg(m.text) : QString()) << '\n';
        }
    }
    if (!dryRun && !found.isEmpty()) {
        AnnotationStore store(*ws);
        store.redactMatchesAndSave(found, reason, who);
    }
    // A shared note went up with its text: the store keeps it in its notes and its journal, which nothing rewrites.
    const qsizetype inNotes = std::count_if(found.cbegin(), found.cend(),
        [](const RedactionMatch& m) { return m.path == QLatin1String("@note"); });
    if (inNotes > 0 && TeamSync::attached(*ws)) {
        m_err << "sightline: " << inNotes << (inNotes == 1 ? " match is" : " matches are")
              << " in notes: their text is cut here only, and stays in the team store's notes and journal (take such a "
                 "note out before it is shared)"
              << Qt::endl;
    }
    m_err << (dryRun ? "would redact " : "redacted ") << found.size() << (found.size() == 1 ? " match" : " matches")
          << (dryRun ? " (nothing changed: --dry-run)" : "") << Qt::endl;
    m_out.flush();
    if (team && !found.isEmpty())
        syncTeam(*ws, *team);
    return Cli::Ok;
}

// What `sightline redact` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::redactSpec()
{
    return VerbSpec { QStringLiteral("redact"), QStringLiteral("SOURCE"),
        QStringLiteral("Redact every match of a regular expression or of built-in patterns in the string values of "
                       "a room's (or every room's) events: each becomes [redacted: REASON], saved at once, the text "
                       "gone from the workspace; the ledger keeps its keyed digest (HMAC-SHA-256). Prints every match (with its text "
                       "under --dry-run, which changes nothing)."),
        { { QStringLiteral("room"), QStringLiteral("the room's id, or a part of it that one room's id alone holds"), QStringLiteral("ID") },
            { QStringLiteral("all-rooms"), QStringLiteral("every room of the source") },
            { QStringLiteral("source"), QStringLiteral("the source the room came from, when several hold its id"),
                QStringLiteral("PATH") },
            { QStringLiteral("pattern"), QStringLiteral("a regular expression (PCRE; repeatable)"), QStringLiteral("REGEX") },
            { QStringLiteral("builtin"), QStringLiteral("built-in patterns: email, phone, card (Luhn-checked), secret (API keys, bearer tokens, passwords)"),
                QStringLiteral("LIST") },
            { QStringLiteral("reason"), QStringLiteral("why: what the placeholder and the ledger say"), QStringLiteral("TEXT") },
            { QStringLiteral("dry-run"), QStringLiteral("print what would be redacted, change nothing") },
            { QStringLiteral("author"), QStringLiteral("who signs it (default: the name the window asked for, else the team store's login, else the login name)"),
                QStringLiteral("NAME") },
            { QStringLiteral("json"), QStringLiteral("one JSON object per line") }, teamOption() },
        QStringLiteral("SOURCE (--room ID | --all-rooms) (--pattern RE | --builtin LIST) --reason TEXT [--dry-run] [--team URI]"),
        QStringLiteral("redact text by pattern, with a preview"), &Session::redact };
}

} // namespace Cli
