#pragma once

// What the command line's verbs share: one Session a run (its output, the options every verb parses, opening a
// source, naming a room), the verb table's entry, and small helpers. Each verb is a Session member in a file of its
// own under app/verbs/; the verb table (cli.cpp) lists each once, with what it parses and what its help says.

#include "cli.h"
#include "sources/importer.h"
#include "team/teamsync.h"

#include <memory>
#include <optional>
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QTextStream>
#include <QVector>

class TeamStore;
class Workspace;
struct EventFilter;
struct ImportReport;

namespace Cli {

struct Failure
{
    int code;
    QString message;
};

class Session;

// The verbs, listed once: what they parse, what their --help and `sightline --help` say, what the man page lists,
// and what runs them.
struct VerbSpec
{
    QString name;
    QString positional;
    QString synopsis;
    QList<QCommandLineOption> options;
    QString usage; // the line `sightline --help` shows, after the name
    QString summary; // ... and what it says the verb does
    int (Session::*run)(const QStringList& args) = nullptr;
};

// Every verb's entry, in the order `sightline --help` lists them (cli.cpp).
const QVector<VerbSpec>& verbSpecs();
bool isVerb(const QString& name);
const VerbSpec& spec(const QString& name);

// Letters to change, add or drop to turn one word into the other (Levenshtein), for "did you mean".
int editDistance(const QString& a, const QString& b);
// Ends the verb with a usage error (exit code 2) saying `message`.
[[noreturn]] void usage(const QString& message);
QJsonValue orNull(const QString& value);
QString line(const QJsonObject& object); // one JSON object on a line
QString timeOrDash(qint64 micros);
QString sourceHelp();
// What every verb takes besides its own options.
QList<QCommandLineOption> commonOptions();
// The options that name a room in a source: its id, and the source when a workspace holds that id from several.
QList<QCommandLineOption> roomOptions();
// --team URI: the team store a verb shares the review through (Session::joinTeam).
QCommandLineOption teamOption();
// The filter a verb that reads a room's events takes (Session::filterOf reads them).
QList<QCommandLineOption> filterOptions();

class Session
{
public:
    // Defined where TeamStore is whole (m_team).
    Session(QTextStream& out, QTextStream& err);
    ~Session();
    // Runs the verb args[1] names (args[0] is the program), with its own options: its exit code. Throws Failure for
    // a usage error, --help or --version; a StoreError for a file that cannot be read.
    int run(const QStringList& args);

private:
    friend const QVector<VerbSpec>& verbSpecs(); // it lists the verbs, each spec from its verb's file

    // The verbs, each in a file of its own (app/verbs/): `sightline VERB ARGS...`, its exit code returned.
    int import(const QStringList& args);
    int rooms(const QStringList& args);
    int events(const QStringList& args);
    int tools(const QStringList& args);
    int stats(const QStringList& args);
    int facets(const QStringList& args);
    int notes(const QStringList& args);
    int note(const QStringList& args);
    int review(const QStringList& args);
    int journal(const QStringList& args);
    int exportReport(const QStringList& args);
    int verify(const QStringList& args);
    int compact(const QStringList& args);
    int redact(const QStringList& args);
    int team(const QStringList& args);
    int queue(const QStringList& args);
    int compare(const QStringList& args);
    int demo(const QStringList& args);
    // journal --verify: the team store's chain checked here, its first broken entry named.
    int verifyTeamJournal(Workspace& ws, const QCommandLineParser& parser, bool json);
    // Each verb's spec, in the verb's file: its options beside the code that reads them.
    static VerbSpec importSpec(), roomsSpec(), eventsSpec(), toolsSpec(), statsSpec(), facetsSpec(), notesSpec(),
        noteSpec(), reviewSpec(), journalSpec(), exportSpec(), verifySpec(), compactSpec(), redactSpec(), teamSpec(),
        queueSpec(), compareSpec(), demoSpec();

    // What the verbs share.
    void parse(QCommandLineParser& parser, const QStringList& args, const QString& verb);
    Importer::Format forcedFormat(const QCommandLineParser& parser);
    void reportProblems(const ImportReport& report);
    // The format `path` is read as: the one detected, or a `forced` one where detection cannot tell. A file
    // Sightline recognises read as another format gives nothing but a flood of problems and a junk room: refused,
    // naming what it is (by import as by every verb that reads a source).
    static Importer::Format formatOf(const QString& path, Importer::Format forced);
    // The rooms a verb's --room names, read alone from a source (the others are listed, and read by a later
    // command or the window); every room for --all-rooms or a verb without --room.
    static std::optional<QStringList> roomsAsked(const QCommandLineParser& parser);
    // A workspace as it is, or a source synced into its cached workspace: `onlyRooms` of it (all when unset, none
    // when empty; ImportOptions::onlyRooms).
    std::unique_ptr<Workspace> openSource(
        const QString& path, Importer::Format format, const std::optional<QStringList>& onlyRooms = std::nullopt);
    // A teammate's redaction that waited for its room's rows (TeamSync::applyWaiting) cut before a verb reads them.
    std::unique_ptr<Workspace> cutWaitingRedactions(std::unique_ptr<Workspace> ws);
    // The room `nativeId` of the workspace opened for `source` (errors name the source as the user gave it, not
    // its cached workspace).
    qint64 roomId(Workspace& ws, const QString& source, const QCommandLineParser& parser);
    // The room `nativeId` names (its id, or a part of it that one room's id alone holds).
    // `option`: what the verb calls the option that names it, for the message when one is needed (compare: room-a).
    qint64 roomId(Workspace& ws, const QString& source, const QCommandLineParser& parser, const QString& nativeId,
        const QString& option = QStringLiteral("room"));
    QString single(const QCommandLineParser& parser);
    static std::optional<qint64> indexOption(const QCommandLineParser& parser, const QString& name);
    static int countOption(const QCommandLineParser& parser, const QString& name, int fallback);
    // The filter of a verb's options and its --query, read as one filter bar text: an option is the field of
    // the same name (--type T is type:T, --exclude-type T is -type:T, --correlation and --group are group:), so
    // that the one rule of the language holds between them too: the same field twice means either value.
    EventFilter filterOf(const QCommandLineParser& parser);
    static bool endsWithLineBreak(const QString& path);
    static qint64 lastIndex(Workspace& ws, qint64 room);
    // Syncs `source` into `ws` whenever it changed (a database: every second) and calls `printNew` after each
    // sync, until SIGINT or SIGTERM: then the sync under way stops after its batch and the loop ends cleanly.
    // Only `onlyRooms` of it, when given (the room a verb follows: the others are not read for it).
    void followSource(Workspace& ws, const QString& source, Importer::Format format,
        const std::optional<QStringList>& onlyRooms, const std::function<void()>& printNew);
    // The team store a verb works with: --team URI (the workspace is attached to it from then on), else the one the
    // workspace is attached to; none when neither. When no server answers there it says so on stderr, with
    // `meanwhile` (what happens instead), and gives none: the verb goes on with the workspace's copy.
    TeamStore* joinTeam(Workspace& ws, const QCommandLineParser& parser, const QString& meanwhile);
    // joinTeam's work: `given` (--team) or the attached store, connected once a run (kept in m_team).
    TeamStore* connectTeam(Workspace& ws, const std::optional<QString>& given, const QString& meanwhile);
    // Every verb that opens a workspace attached to a team first takes what teammates changed (their redactions
    // above all): a store that cannot be reached, or refuses, is said and the verb goes on with its copy.
    void syncAttachedTeam(Workspace& ws);
    // Sends what waits here and takes what teammates changed (TeamSync), saying on stderr what an auditor keeps here;
    // nullopt (said on stderr) when the connection was lost on the way.
    std::optional<TeamSync::Result> syncTeam(Workspace& ws, TeamStore& team);
    // Who signs a change made here: --author, else the name the window asks for once, else the login name.
    QString author(const QCommandLineParser& parser);
    // The room's index as the journal and notes print it.
    static QJsonValue indexValue(const std::optional<qint64>& index);

    QTextStream& m_out;
    QTextStream& m_err;
    QString m_formatOption = QStringLiteral("format"); // the option that forces SOURCE's format (parse())
    std::unique_ptr<TeamStore> m_team; // the team store this run works with (connectTeam)
    bool m_teamUnreachable = false; // it could not be reached: said once, not tried again this run
    QSet<QString> m_said; // what a sync said this run, not said twice
    bool m_syncOnOpen = true; // openSource syncs an attached workspace (not for the team verb)
    std::optional<QString> m_teamGiven; // the verb's --team, for that sync
};

} // namespace Cli
