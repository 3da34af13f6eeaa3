// AG-UI as the protocol defines it (the ag-ui TypeScript client's transformChunks, verifyEvents and
// defaultApplyEvents), for any runtime's log, not only kaboo's: ids used again once their call, message or run
// ended, STARTs replayed for a call carried over, chunked calls ended by the next event, calls without
// arguments, logs without timestamps, and several results for one call. Each case a log and what a reader of
// the protocol finds in it.

#include "sources/aguiassembler.h"
#include "sources/aguilogparser.h"
#include "eventflags.h"
#include "eventkind.h"
#include "outcome.h"
#include "pairing.h"
#include "testsupport.h"

#include <QTest>

namespace {

// A call as the case states it: id, name, arguments as sent, whether they parse (1, 0, or - when there are
// none), outcome, pairing, status, and its result.
QString describe(const ToolCallRecord& c)
{
    return QStringList { c.toolId, c.toolName, c.arguments,
        c.argumentsValid ? QString::number(int(*c.argumentsValid)) : QStringLiteral("-"), Outcomes::name(c.outcome),
        Pairings::name(c.pairing), c.status, c.result }
        .join(QLatin1Char('|'));
}

// A log from events written with ' for " and ` for an escaped \" inside a string, so that they read as JSON.
using AguiCases::log;

} // namespace

class TestAguiProtocol : public QObject
{
    Q_OBJECT

private slots:
    void calls_data()
    {
        QTest::addColumn<QByteArray>("log");
        QTest::addColumn<QStringList>("calls");
        QTest::addColumn<QStringList>("messages"); // each message's text, in order
        QTest::addColumn<int>("shown"); // rows the timeline shows (not folded into a card or message)
        QTest::addColumn<QStringList>("warnings"); // row: what AG-UI's client refuses there (none for valid input)

        QTest::newRow("a call id used again in a later run")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'get_weather'}",
                   "{'type':'TOOL_CALL_ARGS','toolCallId':'c1','delta':'{`a`: 1, `b`: 2}'}",
                   "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
                   "{'type':'TOOL_CALL_RESULT','toolCallId':'c1','messageId':'m1','content':'sunny'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
                   "{'type':'RUN_STARTED','threadId':'t','runId':'r2'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'get_weather'}",
                   "{'type':'TOOL_CALL_ARGS','toolCallId':'c1','delta':'{`city`: `NYC`}'}",
                   "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
                   "{'type':'TOOL_CALL_RESULT','toolCallId':'c1','messageId':'m2','content':'rain'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r2'}" })
            << QStringList { QStringLiteral("c1|get_weather|{\"a\": 1, \"b\": 2}|1|served|exact|completed|sunny"),
                   QStringLiteral("c1|get_weather|{\"city\": \"NYC\"}|1|served|exact|completed|rain") }
            << QStringList {} << 6 << QStringList {};
        QTest::newRow("a call id used again in the same run, once it ended")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'search'}",
                   "{'type':'TOOL_CALL_ARGS','toolCallId':'c1','delta':'{}'}",
                   "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'search'}",
                   "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}" })
            << QStringList { QStringLiteral("c1|search|{}|1|unserved|exact|ended|"),
                   QStringLiteral("c1|search||-|unserved|exact|ended|") }
            << QStringList {} << 4 << QStringList {};
        QTest::newRow("a message id used again in a later run")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TEXT_MESSAGE_START','messageId':'m1','role':'assistant'}",
                   "{'type':'TEXT_MESSAGE_CONTENT','messageId':'m1','delta':'Hello'}",
                   "{'type':'TEXT_MESSAGE_END','messageId':'m1'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
                   "{'type':'RUN_STARTED','threadId':'t','runId':'r2'}",
                   "{'type':'TEXT_MESSAGE_START','messageId':'m1','role':'assistant'}",
                   "{'type':'TEXT_MESSAGE_CONTENT','messageId':'m1','delta':'Again'}",
                   "{'type':'TEXT_MESSAGE_END','messageId':'m1'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r2'}" })
            << QStringList {} << QStringList { QStringLiteral("Hello"), QStringLiteral("Again") } << 6 << QStringList {};
        QTest::newRow("a message left open by an errored run, its id used again")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TEXT_MESSAGE_START','messageId':'msg-2','role':'assistant'}",
                   "{'type':'TEXT_MESSAGE_CONTENT','messageId':'msg-2','delta':'cut'}",
                   "{'type':'RUN_ERROR','message':'model overloaded'}",
                   "{'type':'RUN_STARTED','threadId':'t','runId':'r3'}",
                   "{'type':'TEXT_MESSAGE_START','messageId':'msg-2','role':'assistant'}",
                   "{'type':'TEXT_MESSAGE_CONTENT','messageId':'msg-2','delta':'whole'}",
                   "{'type':'TEXT_MESSAGE_END','messageId':'msg-2'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r3'}" })
            << QStringList {} << QStringList { QStringLiteral("cut"), QStringLiteral("whole") } << 6 << QStringList {};
        QTest::newRow("a START replayed for a call carried over (human in the loop)")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'tc-1','toolCallName':'openPolicyException','parentMessageId':'msg-1'}",
                   "{'type':'TOOL_CALL_ARGS','toolCallId':'tc-1','delta':'{`txId`:`t-9`}'}",
                   "{'type':'TOOL_CALL_END','toolCallId':'tc-1'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
                   "{'type':'RUN_STARTED','threadId':'t','runId':'r2'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'tc-1','toolCallName':'openPolicyException','parentMessageId':'msg-regenerated'}",
                   "{'type':'TOOL_CALL_RESULT','toolCallId':'tc-1','messageId':'tm-1','content':'approved'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r2'}" })
            << QStringList { QStringLiteral("tc-1|openPolicyException|{\"txId\":\"t-9\"}|1|served|exact|completed|approved") }
            << QStringList {} << 5
            << QStringList { QStringLiteral("1: TOOL_CALL_START for tc-1 came again at line 7 and only a TOOL_CALL_RESULT followed it: "
                                            "read as the call it repeats; AG-UI 1.0's verifier requires a TOOL_CALL_END"),
                   QStringLiteral("8: out of sequence: RUN_FINISHED while still open: tool calls tc-1 (no TOOL_CALL_END)") };
        QTest::newRow("a START replayed, and nothing after it")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'tc-1','toolCallName':'approve'}",
                   "{'type':'TOOL_CALL_ARGS','toolCallId':'tc-1','delta':'{`amount`:5}'}",
                   "{'type':'TOOL_CALL_END','toolCallId':'tc-1'}",
                   "{'type':'TOOL_CALL_RESULT','toolCallId':'tc-1','messageId':'tm-1','content':'ok'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
                   "{'type':'RUN_STARTED','threadId':'t','runId':'r2'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'tc-1','toolCallName':'approve'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r2'}" })
            << QStringList { QStringLiteral("tc-1|approve|{\"amount\":5}|1|served|exact|completed|ok") } << QStringList {} << 5
            << QStringList { QStringLiteral("8: out of sequence: RUN_FINISHED while still open: tool calls tc-1 (no TOOL_CALL_END)") };
        QTest::newRow("chunked calls end at the next call and at another kind of event")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TOOL_CALL_CHUNK','toolCallId':'ca','toolCallName':'search','delta':'{`q`:'}",
                   "{'type':'TOOL_CALL_CHUNK','delta':'`x`}'}",
                   "{'type':'TOOL_CALL_CHUNK','toolCallId':'cb','toolCallName':'fetch','delta':'{}'}",
                   "{'type':'RAW','event':{'kept':'open'}}",
                   "{'type':'TOOL_CALL_CHUNK','delta':''}",
                   "{'type':'TEXT_MESSAGE_CHUNK','messageId':'m1','delta':'Looking'}",
                   "{'type':'TOOL_CALL_RESULT','toolCallId':'ca','messageId':'r1','content':'found'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}" })
            << QStringList { QStringLiteral("ca|search|{\"q\":\"x\"}|1|served|exact|completed|found"),
                   QStringLiteral("cb|fetch|{}|1|unserved|exact|ended|") }
            << QStringList { QStringLiteral("Looking") } << 6 << QStringList {};
        QTest::newRow("a chunked call ended by its run's end")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TOOL_CALL_CHUNK','toolCallId':'tool-123','toolCallName':'testTool'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}" })
            << QStringList { QStringLiteral("tool-123|testTool||-|unserved|exact|ended|") } << QStringList {} << 3 << QStringList {};
        QTest::newRow("a chunked call the log stops in is still open")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TOOL_CALL_CHUNK','toolCallId':'c9','toolCallName':'slow','delta':'{`a`'}" })
            << QStringList { QStringLiteral("c9|slow|{\"a\"|0|unserved|start_only|pending|") } << QStringList {} << 2 << QStringList {};
        QTest::newRow("a full call without arguments")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'now'}",
                   "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
                   "{'type':'TOOL_CALL_RESULT','toolCallId':'c1','messageId':'m1','content':'12:00'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}" })
            << QStringList { QStringLiteral("c1|now||-|served|exact|completed|12:00") } << QStringList {} << 3 << QStringList {};
        QTest::newRow("interleaved parallel calls")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'t1','toolCallName':'a'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'t2','toolCallName':'b'}",
                   "{'type':'TOOL_CALL_ARGS','toolCallId':'t2','delta':'{`y`:'}",
                   "{'type':'TOOL_CALL_ARGS','toolCallId':'t1','delta':'{`x`:'}",
                   "{'type':'TOOL_CALL_ARGS','toolCallId':'t1','delta':'1}'}",
                   "{'type':'TOOL_CALL_ARGS','toolCallId':'t2','delta':'2}'}",
                   "{'type':'TOOL_CALL_END','toolCallId':'t1'}",
                   "{'type':'TOOL_CALL_END','toolCallId':'t2'}",
                   "{'type':'TOOL_CALL_RESULT','toolCallId':'t2','messageId':'r2','content':'B'}",
                   "{'type':'TOOL_CALL_RESULT','toolCallId':'t1','messageId':'r1','content':'{`error`:`boom`}'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}" })
            << QStringList { QStringLiteral("t1|a|{\"x\":1}|1|failed|exact|completed|{\"error\":\"boom\"}"),
                   QStringLiteral("t2|b|{\"y\":2}|1|served|exact|completed|B") }
            << QStringList {} << 4 << QStringList {};
        QTest::newRow("two results for one call: both the call's, the last settles it")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'fetch'}",
                   "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
                   "{'type':'TOOL_CALL_RESULT','toolCallId':'c1','messageId':'m1','content':'partial'}",
                   "{'type':'TOOL_CALL_RESULT','toolCallId':'c1','messageId':'m2','content':'whole'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}" })
            << QStringList { QStringLiteral("c1|fetch||-|served|exact|completed|whole") } << QStringList {} << 3 << QStringList {};
    }

    void calls()
    {
        QFETCH(QByteArray, log);
        QFETCH(QStringList, calls);
        QFETCH(QStringList, messages);
        QFETCH(int, shown);
        QFETCH(QStringList, warnings);
        const AguiAssembly a = AguiAssembler::assemble(AguiLogParser::parse(log));
        QStringList found;
        for (const ToolCallRecord& c : a.calls)
            found << describe(c);
        QCOMPARE(found, calls);
        QStringList texts;
        for (const AguiMessage& m : a.messages)
            texts << m.text;
        QCOMPARE(texts, messages);
        int visible = 0;
        for (const StoredEvent& row : a.rows)
            visible += (row.record.flags & EventFlags::Folded) ? 0 : 1;
        QCOMPARE(visible, shown);
        // Valid input: nothing said against it; what AG-UI's client refuses, said, and on its row.
        QStringList said;
        for (const auto& p : a.problems)
            said << QStringLiteral("%1: %2").arg(p.first).arg(p.second);
        QCOMPARE(said, warnings);
        // On their rows, whatever the assembler's window: a row that left it is brought back for a warning.
        for (const qsizetype window : { qsizetype(0), qsizetype(1), qsizetype(3) }) {
            QStringList onRows;
            for (const StoredEvent& row : AguiAssembler::assemble(AguiLogParser::parse(log), {}, window).rows) {
                if (!row.record.warning.isEmpty())
                    onRows << QStringLiteral("%1: %2").arg(row.record.index).arg(row.record.warning);
            }
            QCOMPARE(onRows, warnings);
        }
        // Every row of a call names it; a result, a replayed START, an argument and an end fold into its card.
        for (const StoredEvent& row : a.rows) {
            if (row.record.type.startsWith(QLatin1String("TOOL_CALL_")))
                QVERIFY2(!row.record.toolId.isEmpty(), qPrintable(row.record.type));
        }
    }

    // Messages a MESSAGES_SNAPSHOT or a run's input brings (defaultApplyEvents: new ids are added, known ones
    // kept): shown once, at the row that brought them first, and marked as having no stream of their own. Their
    // tool calls are calls; a tool message answers the call it names when no TOOL_CALL_RESULT did.
    void snapshots_data()
    {
        QTest::addColumn<QByteArray>("log");
        QTest::addColumn<QStringList>("brought"); // each row shown from a snapshot: index|role|text
        QTest::addColumn<QStringList>("calls");

        QTest::newRow("the user's messages only in the runs' input")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1','input':{'messages':[{'id':'u1','role':'user','content':'Hi'}]}}",
                   "{'type':'TEXT_MESSAGE_START','messageId':'a1','role':'assistant'}",
                   "{'type':'TEXT_MESSAGE_CONTENT','messageId':'a1','delta':'Hello'}",
                   "{'type':'TEXT_MESSAGE_END','messageId':'a1'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
                   "{'type':'RUN_STARTED','threadId':'t','runId':'r2','input':{'messages':[{'id':'u1','role':'user','content':'Hi'},"
                   "{'id':'a1','role':'assistant','content':'Hello'},{'id':'u2','role':'user','content':[{'type':'text','text':'And now?'}]}]}}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r2'}" })
            << QStringList { QStringLiteral("0|user|Hi"), QStringLiteral("5|user|And now?") } << QStringList {};
        QTest::newRow("kaboo's message_meta placed it")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1','input':{'messages':[{'id':'u1','role':'user','content':'Hi'}]}}",
                   "{'type':'CUSTOM','name':'kaboo.message_meta','value':{'role':'user','messageId':'u1','createdAt':1000}}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}" })
            << QStringList {} << QStringList {};
        QTest::newRow("a conversation loaded as a snapshot, with a call and its answer")
            << log({ "{'type':'MESSAGES_SNAPSHOT','messages':[{'id':'u1','role':'user','content':'Weather in Oslo?'},"
                     "{'id':'a1','role':'assistant','toolCalls':[{'id':'c9','type':'function','function':{'name':'get_weather','arguments':'{`city`:`Oslo`}'}}]},"
                     "{'id':'t9','role':'tool','toolCallId':'c9','content':'sunny'},"
                     "{'id':'a2','role':'assistant','content':'It is sunny.'}]}",
                   "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}" })
            << QStringList { QStringLiteral("0|system|user: Weather in Oslo?\n\nassistant: get_weather({\"city\":\"Oslo\"})\n\n"
                                            "assistant: It is sunny.") }
            << QStringList { QStringLiteral("c9|get_weather|{\"city\":\"Oslo\"}|1|served|exact|completed|sunny") };
        QTest::newRow("a snapshot of what streamed adds nothing")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TEXT_MESSAGE_START','messageId':'a1','role':'assistant'}",
                   "{'type':'TEXT_MESSAGE_CONTENT','messageId':'a1','delta':'Looking.'}",
                   "{'type':'TEXT_MESSAGE_END','messageId':'a1'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'search','parentMessageId':'a1'}",
                   "{'type':'TOOL_CALL_ARGS','toolCallId':'c1','delta':'{}'}",
                   "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
                   "{'type':'TOOL_CALL_RESULT','toolCallId':'c1','messageId':'t1','content':'found'}",
                   "{'type':'MESSAGES_SNAPSHOT','messages':[{'id':'a1','role':'assistant','content':'Looking.',"
                   "'toolCalls':[{'id':'c1','type':'function','function':{'name':'search','arguments':'{}'}}]},"
                   "{'id':'t1','role':'tool','toolCallId':'c1','content':'found'}]}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}" })
            << QStringList {} << QStringList { QStringLiteral("c1|search|{}|1|served|exact|completed|found") };
        QTest::newRow("a call answered only in the next run's input (human in the loop)")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'confirm'}",
                   "{'type':'TOOL_CALL_ARGS','toolCallId':'c1','delta':'{`amount`:5}'}",
                   "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1','outcome':{'type':'interrupt'}}",
                   "{'type':'RUN_STARTED','threadId':'t','runId':'r2','input':{'messages':["
                   "{'id':'tm1','role':'tool','toolCallId':'c1','content':'{`approved`:true}'}]}}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r2'}" })
            << QStringList {}
            << QStringList { QStringLiteral("c1|confirm|{\"amount\":5}|1|served|exact|completed|{\"approved\":true}") };
        QTest::newRow("a tool message with an error fails its call")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'pay'}",
                   "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
                   "{'type':'MESSAGES_SNAPSHOT','messages':[{'id':'tm1','role':'tool','toolCallId':'c1','content':'denied','error':'the user refused'}]}" })
            << QStringList {} << QStringList { QStringLiteral("c1|pay||-|failed|exact|completed|denied") };
        QTest::newRow("a message in two snapshots is shown once")
            << log({ "{'type':'MESSAGES_SNAPSHOT','messages':[{'id':'u1','role':'user','content':'one'}]}",
                   "{'type':'MESSAGES_SNAPSHOT','messages':[{'id':'u1','role':'user','content':'one'},{'id':'u2','role':'user','content':'two'}]}" })
            << QStringList { QStringLiteral("0|user|one"), QStringLiteral("1|user|two") } << QStringList {};
        QTest::newRow("a message streamed after a snapshot that held it first")
            << log({ "{'type':'MESSAGES_SNAPSHOT','messages':[{'id':'a1','role':'assistant','content':'Hello'}]}",
                   "{'type':'TEXT_MESSAGE_START','messageId':'a1','role':'assistant'}",
                   "{'type':'TEXT_MESSAGE_CONTENT','messageId':'a1','delta':'Hello'}",
                   "{'type':'TEXT_MESSAGE_END','messageId':'a1'}" })
            << QStringList {} << QStringList {};
        QTest::newRow("an assistant message known by its streamed call, echoed in the next run's input")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'confirm','parentMessageId':'a1'}",
                   "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
                   "{'type':'RUN_STARTED','threadId':'t','runId':'r2','input':{'messages':["
                   "{'id':'a1','role':'assistant','toolCalls':[{'id':'c1','type':'function','function':{'name':'confirm','arguments':'{}'}}]},"
                   "{'id':'tm1','role':'tool','toolCallId':'c1','content':'yes'}]}}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r2'}" })
            << QStringList {} << QStringList { QStringLiteral("c1|confirm||-|served|exact|completed|yes") };
        QTest::newRow("a snapshot call never answered")
            << log({ "{'type':'MESSAGES_SNAPSHOT','messages':[{'id':'a1','role':'assistant','content':'',"
                     "'toolCalls':[{'id':'c7','type':'function','function':{'name':'approve','arguments':'{}'}}]}]}" })
            << QStringList { QStringLiteral("0|assistant|approve({})") } << QStringList { QStringLiteral("c7|approve|{}|1|unserved|start_only|pending|") };
    }

    void snapshots()
    {
        QFETCH(QByteArray, log);
        QFETCH(QStringList, brought);
        QFETCH(QStringList, calls);
        const AguiAssembly a = AguiAssembler::assemble(AguiLogParser::parse(log));
        QStringList shown;
        for (const StoredEvent& row : a.rows) {
            const EventRecord& r = row.record;
            if (!(r.flags & EventFlags::FromSnapshot))
                continue;
            QVERIFY(!(r.flags & EventFlags::Folded));
            QCOMPARE(row.body, r.text); // found by search
            shown << QStringLiteral("%1|%2|%3").arg(r.index).arg(r.role, r.text);
        }
        QCOMPARE(shown, brought);
        QStringList found;
        for (const ToolCallRecord& c : a.calls)
            found << describe(c);
        QCOMPARE(found, calls);
        // A log that begins with a snapshot, or has one after its run, is out of the client's sequence: said, and
        // tested in sequence(); nothing else is.
        for (const auto& p : a.problems)
            QVERIFY2(p.second.startsWith(QLatin1String("out of sequence: ")), qPrintable(p.second));
        // The thread's title is its first user message, wherever it came from.
        for (const QString& b : brought) {
            if (b.section(QLatin1Char('|'), 1, 1) == QLatin1String("user")) {
                QCOMPARE(a.firstUserText, b.section(QLatin1Char('|'), 2));
                break;
            }
        }
    }

    // What AG-UI's client refuses in a stream (its verifier): read all the same, and said on the row where it happens,
    // in the client's terms. A stream it takes whole is said nothing against.
    void sequence_data()
    {
        QTest::addColumn<QByteArray>("log");
        QTest::addColumn<QStringList>("warnings"); // row: what is said there

        QTest::newRow("the first event is not RUN_STARTED")
            << log({ "{'type':'TEXT_MESSAGE_START','messageId':'m1','role':'assistant'}",
                   "{'type':'TEXT_MESSAGE_CONTENT','messageId':'m1','delta':'Hi'}",
                   "{'type':'TEXT_MESSAGE_END','messageId':'m1'}" })
            << QStringList { QStringLiteral("0: out of sequence: the log begins with TEXT_MESSAGE_START, not RUN_STARTED") };
        QTest::newRow("RUN_FINISHED with a step, a text message and a tool call still open")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'STEP_STARTED','stepName':'plan'}",
                   "{'type':'TEXT_MESSAGE_START','messageId':'m1','role':'assistant'}",
                   "{'type':'TEXT_MESSAGE_CONTENT','messageId':'m1','delta':'Half'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'search'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}" })
            << QStringList { QStringLiteral("5: out of sequence: RUN_FINISHED while still open: steps plan; text messages m1; "
                                            "tool calls c1 (no TOOL_CALL_END)") };
        QTest::newRow("RUN_STARTED inside an active run")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'RUN_STARTED','threadId':'t','runId':'r2'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r2'}" })
            << QStringList { QStringLiteral("1: out of sequence: RUN_STARTED while a run is still active (no RUN_FINISHED or "
                                            "RUN_ERROR ended it)") };
        QTest::newRow("an event after RUN_FINISHED")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
                   "{'type':'TEXT_MESSAGE_START','messageId':'m1','role':'assistant'}",
                   "{'type':'TEXT_MESSAGE_END','messageId':'m1'}",
                   "{'type':'RUN_STARTED','threadId':'t','runId':'r2'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r2'}" })
            << QStringList { QStringLiteral("2: out of sequence: TEXT_MESSAGE_START after the run finished (RUN_FINISHED at "
                                            "line 2); AG-UI's client takes no event after it but RUN_STARTED or RUN_ERROR"),
                   QStringLiteral("3: out of sequence: TEXT_MESSAGE_END after the run finished (RUN_FINISHED at line 2); "
                                  "AG-UI's client takes no event after it but RUN_STARTED or RUN_ERROR") };
        QTest::newRow("an event after RUN_ERROR")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'RUN_ERROR','message':'model overloaded'}",
                   "{'type':'CUSTOM','name':'note','value':1}" })
            << QStringList { QStringLiteral("2: out of sequence: CUSTOM after the run ended with RUN_ERROR at line 2; AG-UI's "
                                            "client takes no event after it but a new RUN_STARTED") };
        QTest::newRow("STEP_FINISHED without its start, and a step started twice")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'STEP_FINISHED','stepName':'search'}",
                   "{'type':'STEP_STARTED','stepName':'plan'}",
                   "{'type':'STEP_STARTED','stepName':'plan'}",
                   "{'type':'STEP_FINISHED','stepName':'plan'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}" })
            << QStringList { QStringLiteral("1: out of sequence: STEP_FINISHED for step \"search\", which was not started"),
                   QStringLiteral("3: out of sequence: STEP_STARTED for step \"plan\", which is already active") };
        QTest::newRow("valid: a lone RUN_ERROR first, runs in turn, a RUN_ERROR after a run finished, chunks at the end")
            << log({ "{'type':'RUN_ERROR','message':'no model'}",
                   "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'STEP_STARTED','stepName':'plan'}",
                   "{'type':'TEXT_MESSAGE_CHUNK','messageId':'m1','delta':'Hi'}",
                   "{'type':'TOOL_CALL_CHUNK','toolCallId':'c1','toolCallName':'now','delta':'{}'}",
                   "{'type':'STEP_FINISHED','stepName':'plan'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
                   "{'type':'RUN_ERROR','message':'late'}",
                   "{'type':'RUN_STARTED','threadId':'t','runId':'r2'}",
                   "{'type':'TEXT_MESSAGE_START','messageId':'m2','role':'assistant'}",
                   "{'type':'TEXT_MESSAGE_END','messageId':'m2'}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r2'}" })
            << QStringList {};
    }

    void sequence()
    {
        QFETCH(QByteArray, log);
        QFETCH(QStringList, warnings);
        const AguiAssembly a = AguiAssembler::assemble(AguiLogParser::parse(log));
        QStringList said;
        for (const auto& p : a.problems)
            said << QStringLiteral("%1: %2").arg(p.first).arg(p.second);
        QCOMPARE(said, warnings);
        // Each on its row, where a reviewer reads it.
        QStringList onRows;
        for (const StoredEvent& row : a.rows) {
            for (const QString& w : row.record.warning.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
                onRows << QStringLiteral("%1: %2").arg(row.record.index).arg(w);
        }
        QCOMPARE(onRows, warnings);
        // Read all the same: every line a row.
        QCOMPARE(a.rows.size(), log.count('\n'));
    }

    // Tool results as the client reads them: content parts, a second answer a snapshot brings under a new message id,
    // and a tool message a later run's input restates, which answers the call it answered then.
    void results_data()
    {
        QTest::addColumn<QByteArray>("log");
        QTest::addColumn<QStringList>("calls");

        QTest::newRow("a result given as content parts")
            << AguiCases::contentParts()
            << QStringList { QStringLiteral("c1|add||-|served|exact|completed|42") };
        QTest::newRow("a second answer in a snapshot, under a new message id, settles the call")
            << AguiCases::secondAnswerInASnapshot()
            << QStringList { QStringLiteral("c1|fetch||-|served|exact|completed|second") };
        QTest::newRow("the answer a snapshot repeats under its own id is the same answer")
            << log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
                   "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'fetch'}",
                   "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
                   "{'type':'TOOL_CALL_RESULT','toolCallId':'c1','messageId':'m1','content':'only'}",
                   "{'type':'MESSAGES_SNAPSHOT','messages':[{'id':'m1','role':'tool','toolCallId':'c1','content':'only'}]}",
                   "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}" })
            << QStringList { QStringLiteral("c1|fetch||-|served|exact|completed|only") };
        QTest::newRow("a tool message restated in a later run's input answers the call it answered, not a later one")
            << AguiCases::answerRestatedInALaterRun()
            << QStringList { QStringLiteral("c1|lookup||-|served|exact|completed|found"),
                   QStringLiteral("c1|lookup|{}|1|unserved|exact|ended|") };
    }

    void results()
    {
        QFETCH(QByteArray, log);
        QFETCH(QStringList, calls);
        const AguiAssembly a = AguiAssembler::assemble(AguiLogParser::parse(log));
        QStringList found;
        for (const ToolCallRecord& c : a.calls)
            found << describe(c);
        QCOMPARE(found, calls);
        QVERIFY2(a.problems.isEmpty(), qPrintable(a.problems.isEmpty() ? QString() : a.problems.first().second));
    }

    // A TEXT_MESSAGE_CHUNK without a delta is a message (empty), as the client's transform makes it one; a reasoning
    // message started again after its end, in its run, is one message with every part.
    void messagesAsTheClientKeepsThem()
    {
        const AguiAssembly empty = AguiAssembler::assemble(AguiLogParser::parse(log({
            "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
            "{'type':'TEXT_MESSAGE_CHUNK','messageId':'m1','role':'assistant'}",
            "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
        })));
        QCOMPARE(empty.messages.size(), 1);
        QCOMPARE(empty.messages.first().messageId, QStringLiteral("m1"));
        QCOMPARE(empty.messages.first().text, QString());
        QVERIFY(empty.messages.first().complete);
        QCOMPARE(empty.rows[1].record.messageId, QStringLiteral("m1"));
        QCOMPARE(empty.rows[1].record.role, QStringLiteral("assistant"));
        QVERIFY(!(empty.rows[1].record.flags & EventFlags::Folded));

        const AguiAssembly reused = AguiAssembler::assemble(AguiLogParser::parse(log({
            "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
            "{'type':'REASONING_START','messageId':'phase1'}",
            "{'type':'REASONING_MESSAGE_START','messageId':'r1','role':'reasoning'}",
            "{'type':'REASONING_MESSAGE_CONTENT','messageId':'r1','delta':'First part'}",
            "{'type':'REASONING_MESSAGE_END','messageId':'r1'}",
            "{'type':'REASONING_MESSAGE_START','messageId':'r1','role':'reasoning'}",
            "{'type':'REASONING_MESSAGE_CONTENT','messageId':'r1','delta':' Second part'}",
            "{'type':'REASONING_MESSAGE_END','messageId':'r1'}",
            "{'type':'REASONING_END','messageId':'phase1'}",
            "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
        })));
        QCOMPARE(reused.messages.size(), 1);
        QCOMPARE(reused.messages.first().text, QStringLiteral("First part Second part"));
        QCOMPARE(reused.rows[2].record.text, QStringLiteral("First part Second part"));
        QCOMPARE(reused.rows[2].body, QStringLiteral("First part Second part"));
        for (int k = 3; k <= 7; ++k)
            QVERIFY2(reused.rows[k].record.flags & EventFlags::Folded, qPrintable(reused.rows[k].record.type));
        QVERIFY(reused.problems.isEmpty());
        // In a later run the id names a new message, as a text message's does.
        const AguiAssembly later = AguiAssembler::assemble(AguiLogParser::parse(log({
            "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
            "{'type':'REASONING_MESSAGE_START','messageId':'r1','role':'reasoning'}",
            "{'type':'REASONING_MESSAGE_CONTENT','messageId':'r1','delta':'One'}",
            "{'type':'REASONING_MESSAGE_END','messageId':'r1'}",
            "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
            "{'type':'RUN_STARTED','threadId':'t','runId':'r2'}",
            "{'type':'REASONING_MESSAGE_START','messageId':'r1','role':'reasoning'}",
            "{'type':'REASONING_MESSAGE_CONTENT','messageId':'r1','delta':'Two'}",
            "{'type':'REASONING_MESSAGE_END','messageId':'r1'}",
            "{'type':'RUN_FINISHED','threadId':'t','runId':'r2'}",
        })));
        QCOMPARE(later.messages.size(), 2);
        QCOMPARE(later.messages[1].text, QStringLiteral("Two"));
    }

    // A reasoning phase's START and END (their own id names the phase) show in the reasoning messages they frame: the
    // START in the first, the END in the last, so that each is in an item. A phase with no message shows as lines of
    // its own; the deprecated THINKING_START/END frame thinking messages the same way.
    void aReasoningPhaseShowsInItsMessages()
    {
        const AguiAssembly a = AguiAssembler::assemble(AguiLogParser::parse(log({
            "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
            "{'type':'REASONING_START','messageId':'phase1'}",
            "{'type':'REASONING_MESSAGE_START','messageId':'m1','role':'reasoning'}",
            "{'type':'REASONING_MESSAGE_CONTENT','messageId':'m1','delta':'First'}",
            "{'type':'REASONING_MESSAGE_END','messageId':'m1'}",
            "{'type':'REASONING_MESSAGE_START','messageId':'m2','role':'reasoning'}",
            "{'type':'REASONING_MESSAGE_CONTENT','messageId':'m2','delta':'Second'}",
            "{'type':'REASONING_MESSAGE_END','messageId':'m2'}",
            "{'type':'REASONING_END','messageId':'phase1'}",
            "{'type':'REASONING_START','messageId':'phase2'}",
            "{'type':'REASONING_END','messageId':'phase2'}",
            "{'type':'THINKING_START','title':'Planning'}",
            "{'type':'THINKING_TEXT_MESSAGE_START'}",
            "{'type':'THINKING_TEXT_MESSAGE_CONTENT','delta':'Think'}",
            "{'type':'THINKING_TEXT_MESSAGE_END'}",
            "{'type':'THINKING_END'}",
            "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
        })));
        auto folded = [&](int k) { return bool(a.rows[k].record.flags & EventFlags::Folded); };
        QCOMPARE(a.rows[1].record.messageId, QStringLiteral("m1"));
        QVERIFY(folded(1));
        QVERIFY(!folded(2)); // the message's own row: its item
        QCOMPARE(a.rows[8].record.messageId, QStringLiteral("m2"));
        QVERIFY(folded(8));
        QVERIFY(!folded(5));
        // The empty phase: two lines of its own.
        QCOMPARE(a.rows[9].record.messageId, QStringLiteral("phase2"));
        QCOMPARE(a.rows[10].record.messageId, QStringLiteral("phase2"));
        QVERIFY(!folded(9) && !folded(10));
        // THINKING_*: the phase's title stays its row's text; both ends in the thinking message.
        QCOMPARE(a.rows[11].record.text, QStringLiteral("Planning"));
        QCOMPARE(a.rows[11].record.messageId, a.rows[12].record.messageId);
        QCOMPARE(a.rows[15].record.messageId, a.rows[12].record.messageId);
        QVERIFY(folded(11) && folded(15) && !folded(12));
        QVERIFY(a.problems.isEmpty());
        // A phase its run left open frames no message of the next run.
        const AguiAssembly open = AguiAssembler::assemble(AguiLogParser::parse(log({
            "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
            "{'type':'REASONING_START','messageId':'phase1'}",
            "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
            "{'type':'RUN_STARTED','threadId':'t','runId':'r2'}",
            "{'type':'REASONING_MESSAGE_START','messageId':'m1','role':'reasoning'}",
            "{'type':'REASONING_MESSAGE_END','messageId':'m1'}",
            "{'type':'RUN_FINISHED','threadId':'t','runId':'r2'}",
        })));
        QCOMPARE(open.rows[1].record.messageId, QStringLiteral("phase1"));
        QVERIFY(!(open.rows[1].record.flags & EventFlags::Folded));
        // ... nor does its END, come in a later run, show in the message of the run that ended.
        const AguiAssembly late = AguiAssembler::assemble(AguiLogParser::parse(log({
            "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
            "{'type':'REASONING_START','messageId':'phase1'}",
            "{'type':'REASONING_MESSAGE_START','messageId':'m1','role':'reasoning'}",
            "{'type':'REASONING_MESSAGE_END','messageId':'m1'}",
            "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
            "{'type':'RUN_STARTED','threadId':'t','runId':'r2'}",
            "{'type':'REASONING_END','messageId':'phase1'}",
            "{'type':'RUN_FINISHED','threadId':'t','runId':'r2'}",
        })));
        QVERIFY(late.rows[1].record.flags & EventFlags::Folded);
        QCOMPARE(late.rows[6].record.messageId, QStringLiteral("phase1"));
        QVERIFY(!(late.rows[6].record.flags & EventFlags::Folded));
    }

    // A START while the same id still streams its arguments: the protocol refuses it; said, and kept apart.
    void aSecondStartWhileTheFirstIsOpen()
    {
        const AguiAssembly a = AguiAssembler::assemble(AguiLogParser::parse(log({
            "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
            "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'a'}",
            "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'a'}",
            "{'type':'TOOL_CALL_ARGS','toolCallId':'c1','delta':'{}'}",
            "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
        })));
        QCOMPARE(a.calls.size(), 2);
        QCOMPARE(a.problems.size(), 1);
        QCOMPARE(a.problems.first().first, 2);
        QVERIFY(a.problems.first().second.contains(QLatin1String("still open")));
    }

    // Timestamps are optional in AG-UI: without them a bare RUN_FINISHED (kaboo's closer) is made up, and nothing
    // before it is taken for one of kaboo's closers; with kaboo's times the block it appended is.
    void withoutTimestampsOnlyTheTerminalIsMadeUp()
    {
        const AguiAssembly a = AguiAssembler::assemble(AguiLogParser::parse(log({
            "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
            "{'type':'TEXT_MESSAGE_START','messageId':'m1','role':'assistant'}",
            "{'type':'TEXT_MESSAGE_CONTENT','messageId':'m1','delta':'Done.'}",
            "{'type':'TEXT_MESSAGE_END','messageId':'m1'}",
            "{'type':'RUN_FINISHED'}",
        })));
        QVERIFY(!(a.rows[3].record.flags & EventFlags::Synthetic));
        QVERIFY(a.rows[4].record.flags & EventFlags::Synthetic);
        const AguiAssembly stamped = AguiAssembler::assemble(AguiLogParser::parse(log({
            "{'type':'RUN_STARTED','threadId':'t','runId':'r1','timestamp':1000}",
            "{'type':'TEXT_MESSAGE_START','messageId':'m1','role':'assistant','timestamp':1001}",
            "{'type':'TEXT_MESSAGE_CONTENT','messageId':'m1','delta':'Do','timestamp':1002}",
            "{'type':'TEXT_MESSAGE_END','messageId':'m1','timestamp':1500}",
            "{'type':'RUN_FINISHED','timestamp':1500}",
        })));
        QVERIFY(stamped.rows[3].record.flags & EventFlags::Synthetic);
        QVERIFY(stamped.rows[4].record.flags & EventFlags::Synthetic);
    }
};

QTEST_GUILESS_MAIN(TestAguiProtocol)
#include "tst_aguiprotocol.moc"
