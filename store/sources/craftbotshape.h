#pragma once

#include "../outcome.h"
#include "../runrecord.h"
#include "../toolcallrecord.h"
#include "eventmdparser.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>
#include <vector>

// The first pass over a CraftBot event stream: what its records say of each other, kept without their text, so that a
// stream of any length is assembled in bounded memory (the second pass, CraftBotAssembler, makes the rows).
//
// CraftBot writes no action ids, so an end is attached to the oldest open start of the same action name: every such
// pair is guessed, and where two calls of one name were running at once (parallel calls, or two tasks at the same
// time) all of them are ambiguous, since the order of the ends says nothing about which start they close. A start
// that nothing ends is unserved; an end whose start rotation dropped is kept as end_only. Tasks run from task_start
// to task_end with their end status, and every record belongs to a task (or to the conversation). What decides a
// record's task can come after it (the id a task_start's output gives), so the shape is made whole by finish().
struct CraftBotAction;

class CraftBotShape
{
public:
    // One call as the stream pairs it (its arguments and result are in its rows).
    struct Call
    {
        qint64 start = -1;
        qint64 end = -1;
        qint32 group = 0;
        qint32 name = 0; // in the shape's strings
        qint32 error = 0;
        Pairing pairing = Pairing::StartOnly;
        Outcome outcome = Outcome::Unserved;
        bool ambiguous = false;
        bool argumentsValid = false;
        // A task_start whose end is not in this stream but whose task was started (sessions.db logs the end to the
        // task's own stream, which CraftBot deletes when the task ends): it ran, it is not unserved.
        bool endElsewhere = false;
    };
    // What a record's row takes from the shape.
    struct Row
    {
        qint32 group = 0; // in groups(): 0 is the conversation
        qint32 call = -1; // in calls()
        int flags = 0; // EventFlags: guessed, ambiguous, folded
    };

    // The stream's next record; `action`, when given, is its action parsed already (CraftBotAction::parse, on the
    // import's reading thread), else it is parsed here.
    void take(const EventMdRecord& record, const CraftBotAction* action = nullptr);
    void reserve(qint64 records) { m_records.reserve(records); } // a million held: grown once, not doubled
    // Forgets the last record taken (a followed log's, which its writer may not have finished).
    void dropLast();
    qint64 size() const { return qint64(m_records.size()); }
    // Pairs, names and groups what was taken; again after more was taken.
    void finish();
    // What was taken, without what finish() made of it: to take more.
    CraftBotShape unfinished() const;
    // The same, its records moved out: this shape keeps only what finish() made of them (row(), agrees(), calls()
    // and runs() still answer; size() is 0).
    CraftBotShape takeUnfinished();

    const Row& row(qint64 index) const { return m_rows[index]; }
    // Whether row `index` is made the same way by both shapes (its task, its call, its flags).
    bool agrees(const CraftBotShape& other, qint64 index) const;
    const QString& group(qint32 id) const { return m_groups.list[id]; }
    const QVector<Call>& calls() const { return m_calls; }
    qint64 micros(qint64 index) const { return m_records[index].micros; }
    const RunRecords& runs() const { return m_runs; }
    // A call as the tool_calls table keeps it, with the arguments and result its rows hold.
    ToolCallRecord callRecord(qint32 call, const QString& arguments, const QString& result) const;
    QString toolId(qint32 call) const; // CraftBot has no action ids: where the call ran, what it was, which one

private:
    // TaskCreated: EVENT.md's "Created task: 'NAME'", which also places the records after it; TaskStarted:
    // sessions.db's "Started task: NAME", in a stream that is one task's or the conversation's already.
    enum class Kind : quint8 { Other, Partial, UserMessage, TaskCreated, TaskStarted, TaskEnded };
    // A million records are held: only numbers, each string once in m_strings (0 is the empty one).
    struct Record
    {
        qint64 micros = 0;
        qint32 action = -1; // in m_actions
        qint32 first = 0; // a created or started task's name, or an ended task's status
        qint32 second = 0; // an ended task's note
        Kind kind = Kind::Other;
    };
    struct Action
    {
        qint32 name = 0;
        qint32 session = 0; // a start's _session_id
        qint32 task = 0; // a task_start's task_name (its start), or its task_id (its end)
        qint32 error = 0; // an end's
        Outcome outcome = Outcome::Served; // an end's
        bool start = false;
        bool gui = false;
        bool valid = false; // its value parsed
    };
    // Strings held once, each by its place in the list; 0 is the empty one.
    struct Strings
    {
        QStringList list { QString() };
        QHash<QString, qint32> ids { { QString(), 0 } };
        qint32 id(const QString& s);
    };
    qint32 intern(const QString& s) { return m_strings.id(s); }
    const QString& text(qint32 id) const { return m_strings.list[id]; }
    qint32 groupId(const QString& group) { return m_groups.id(group); }

    // Plain vectors: a followed log's shape is copied and taken on at each sync, and Qt's shared vectors copied each
    // record one by one when finish() first touched one.
    std::vector<Record> m_records;
    std::vector<Action> m_actions;
    Strings m_strings;
    bool m_wholeSeconds = true; // every stamp taken is to the second (EVENT.md): its durations are whole seconds

    QVector<Row> m_rows;
    Strings m_groups;
    QVector<Call> m_calls;
    RunRecords m_runs;
};
