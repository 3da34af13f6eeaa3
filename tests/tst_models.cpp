// The item models under QAbstractItemModelTester: the room list, and the event list that reads pages from
// the store worker on its own thread.

#include "annotationstore.h"
#include "eventlistmodel.h"
#include "journalmodel.h"
#include "facetmodel.h"
#include "filterquery.h"
#include "jsontreemodel.h"
#include "roomfilterproxy.h"
#include "roomlistmodel.h"
#include "sources/importer.h"
#include "storeclient.h"
#include "testsupport.h"
#include "workspace.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QFont>
#include <QJsonDocument>
#include <QJsonObject>
#include <QIcon>
#include <QLocale>
#include "presentation.h"

#include <QSet>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTest>
#include <QThread>

using namespace TestSupport;

class TestModels : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_workspace;
    qint64 m_bigRoom = 0;
    qint64 m_blockedRoom = 0;

    void openIn(StoreClient& client, const QString& workspace = {})
    {
        QSignalSpy opened(&client, &StoreClient::workspaceOpened);
        QSignalSpy failed(&client, &StoreClient::failed);
        client.open(workspace.isEmpty() ? m_workspace : workspace);
        // Generous: on a loaded machine an open can wait on another connection's checkpoint (busy timeout 5 s).
        QTRY_VERIFY_WITH_TIMEOUT(opened.count() == 1 || failed.count() > 0, 20000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(2).toString()));
    }

private slots:
    void initTestCase()
    {
        // A store with one room of 516 events: more than two pages.
        const QString source = growSupportRoom(m_dir, 599);
        m_workspace = m_dir.filePath(QStringLiteral("models.sightline"));
        Workspace ws(m_workspace);
        Importer::import(ws, source);
        m_bigRoom = ws.findRooms(QStringLiteral("sup-late-delivery")).first();
        QCOMPARE(ws.room(m_bigRoom)->eventCount, 516);
        for (const RoomSummary& r : ws.rooms()) {
            if (r.blockedCount > 0)
                m_blockedRoom = r.id;
        }
        QVERIFY(m_blockedRoom != 0);
    }

    // What reviewers added has panes of its own: the labels, and the states is: finds, each counted under the rest
    // of the filter, and ticked into the filter the bar writes.
    void labelsAndStatesInThePanes()
    {
        QTemporaryDir dir;
        auto ws = TestSupport::importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = ws->findRooms(QStringLiteral("sup-duplicate-charge")).first();
        AnnotationStore store(*ws);
        store.addLabel(room, 4, QStringLiteral("pii"), QStringLiteral("ana"));
        store.addLabel(room, 5, QStringLiteral("pii"), QStringLiteral("ana"));
        store.addLabel(room, 5, QStringLiteral("bug"), QStringLiteral("ana"));
        store.setMarked(room, 6, true, QStringLiteral("ana"));
        store.editText(room, 8, QStringLiteral("two payments"), QStringLiteral("ana"));
        FacetModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setCounts(ws->facets(room, {}));
        model.setFilter({});
        const QModelIndex labels = model.sectionIndex(QStringLiteral("label"));
        QCOMPARE(labels.data().toString(), QStringLiteral("Labels"));
        QCOMPARE(model.rowCount(labels), 2);
        int piiRow = -1;
        for (int r = 0; r < model.rowCount(labels); ++r) {
            if (model.index(r, 0, labels).data().toString() == QLatin1String("pii"))
                piiRow = r;
        }
        QVERIFY(piiRow >= 0);
        QCOMPARE(model.index(piiRow, 1, labels).data().toLongLong(), 2);
        const QModelIndex states = model.sectionIndex(QStringLiteral("is"));
        QCOMPARE(states.data().toString(), QStringLiteral("Review"));
        QMap<QString, qint64> counted;
        for (int r = 0; r < model.rowCount(states); ++r)
            counted.insert(model.index(r, 0, states).data().toString(), model.index(r, 1, states).data().toLongLong());
        QCOMPARE(counted, (QMap<QString, qint64> { { QStringLiteral("labelled"), 2 }, { QStringLiteral("marked"), 1 },
                              { QStringLiteral("edited"), 1 } }));
        // Ticked: the filter says label:pii, and under it the states count the two labelled events only.
        const EventFilter pii = model.toggled(model.index(piiRow, 0, labels));
        QCOMPARE(pii.labels, QStringList { QStringLiteral("pii") });
        const FacetCounts under = ws->facets(room, pii);
        QCOMPARE(under.shown, 2);
        QCOMPARE(under.count(QStringLiteral("is"), QStringLiteral("labelled")), 2);
        QCOMPARE(under.count(QStringLiteral("is"), QStringLiteral("marked")), 0);
        QCOMPARE(under.count(QStringLiteral("label"), QStringLiteral("bug")), 1); // its own field is left out
    }

    // The panes' values: types under their kinds, counts from the workspace, rows that keep their place while
    // counts change, and ticks that ask for filters the bar can write.
    void facets()
    {
        FacetModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        Workspace ws(m_workspace);
        const FacetCounts all = ws.facets(m_bigRoom, {});
        model.setCounts(all);
        model.setFilter({});
        QCOMPARE(resets.count(), 0);
        // Types, channels, channel types, tools, outcomes, participants, labels, review states.
        QCOMPARE(model.rowCount(), 8);
        const QModelIndex types = model.sectionIndex(QStringLiteral("type"));
        QCOMPARE(types.data().toString(), QStringLiteral("Types"));
        QCOMPARE(model.rowCount(types), all.fields.value(QStringLiteral("kind")).size());
        const QModelIndex toolCall = model.valueIndex(QStringLiteral("kind"), QStringLiteral("tool_call"));
        QCOMPARE(toolCall.parent(), types);
        const QModelIndex end = model.valueIndex(QStringLiteral("type"), QStringLiteral("tool_call_end"));
        QCOMPARE(end.parent(), toolCall);
        QCOMPARE(end.data(FacetModel::CountRole).toLongLong(),
            all.count(QStringLiteral("type"), QStringLiteral("tool_call_end")));
        QCOMPARE(model.index(end.row(), FacetModel::CountColumn, toolCall).data().toString(),
            QLocale().toString(all.count(QStringLiteral("type"), QStringLiteral("tool_call_end"))));
        QVERIFY(model.flags(end) & Qt::ItemIsUserCheckable);
        QVERIFY(!(model.flags(types) & Qt::ItemIsUserCheckable));

        // Under a filter on the channel, the channels keep their rows, and a value left with none reads 0.
        const QVector<FacetValue> channels = all.fields.value(QStringLiteral("channel"));
        QVERIFY(channels.size() >= 2);
        const QPersistentModelIndex second = model.valueIndex(QStringLiteral("channel"), channels.at(1).value);
        EventFilter oneType;
        oneType.types = { QStringLiteral("tool_call_end") };
        model.setCounts(ws.facets(m_bigRoom, oneType));
        QCOMPARE(resets.count(), 0);
        QVERIFY(second.isValid());
        QCOMPARE(model.valueIndex(QStringLiteral("channel"), channels.at(1).value), QModelIndex(second));
        QCOMPARE(model.valueIndex(QStringLiteral("type"), QStringLiteral("message"))
                     .data(FacetModel::CountRole)
                     .toLongLong(),
            all.count(QStringLiteral("type"), QStringLiteral("message"))); // its own field is not applied to it

        // Ticks: a kind, then a type beside it turns the kind into its types; exclusion; only; clearing.
        QSignalSpy edited(&model, &FacetModel::filterEdited);
        QVERIFY(model.setData(toolCall, Qt::Checked, Qt::CheckStateRole));
        QCOMPARE(edited.count(), 1);
        EventFilter f = edited.last().first().value<EventFilter>();
        QCOMPARE(FilterQuery::format(f), QStringLiteral("kind:tool_call"));
        QCOMPARE(toolCall.data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Unchecked); // until it comes back
        model.setFilter(f);
        QCOMPARE(toolCall.data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Checked);
        QCOMPARE(end.data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Checked); // through its kind
        f = model.toggled(end); // untick one type of a ticked kind: its other types stay
        QVERIFY(f.kinds.isEmpty());
        QVERIFY(f.types.contains(QStringLiteral("tool_call_start")));
        QVERIFY(!f.types.contains(QStringLiteral("tool_call_end")));
        model.setFilter(f);
        QCOMPARE(toolCall.data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::PartiallyChecked);
        const QModelIndex message = model.valueIndex(QStringLiteral("kind"), QStringLiteral("message"));
        f = model.toggled(message); // another kind while types are ticked: its types join them
        QVERIFY(f.kinds.isEmpty());
        QVERIFY(f.types.contains(QStringLiteral("message")));
        f = model.excluded(model.valueIndex(QStringLiteral("channel"), channels.at(0).value));
        QCOMPARE(f.excludeChannels, QStringList { channels.at(0).value });
        model.setFilter(f);
        const QModelIndex left = model.valueIndex(QStringLiteral("channel"), channels.at(0).value);
        QVERIFY(left.data(FacetModel::ExcludedRole).toBool());
        QVERIFY(left.data(Qt::FontRole).value<QFont>().strikeOut());
        QVERIFY(model.toggled(left).excludeChannels.isEmpty()); // a tick on a struck-out value lets it back
        f = model.only(model.valueIndex(QStringLiteral("type"), QStringLiteral("message")));
        QCOMPARE(f.types, QStringList { QStringLiteral("message") });
        QCOMPARE(model.cleared(end).types, QStringList());
        QCOMPARE(model.cleared(end).excludeChannels, QStringList { channels.at(0).value });

        // A value the room no longer holds (a followed room's last unserved call served) leaves the panes, a kind
        // with its last type; one the filter names stays, at 0.
        model.setFilter({});
        model.setCounts(all);
        FacetCounts later = all;
        QVector<FacetValue>& kinds = later.fields[QStringLiteral("kind")];
        kinds.removeIf([](const FacetValue& v) { return v.value == QLatin1String("tool_call"); });
        later.fields[QStringLiteral("type")].removeIf(
            [](const FacetValue& v) { return v.group == QLatin1String("tool_call"); });
        const QString firstTool = all.fields.value(QStringLiteral("tool")).constFirst().value;
        later.fields[QStringLiteral("tool")].removeFirst();
        EventFilter namesTheTool;
        namesTheTool.tools = { firstTool };
        model.setFilter(namesTheTool);
        model.setCounts(later);
        QVERIFY(!model.valueIndex(QStringLiteral("kind"), QStringLiteral("tool_call")).isValid());
        QVERIFY(!model.valueIndex(QStringLiteral("type"), QStringLiteral("tool_call_end")).isValid());
        QCOMPARE(model.rowCount(types), all.fields.value(QStringLiteral("kind")).size() - 1);
        const QModelIndex named = model.valueIndex(QStringLiteral("tool"), firstTool);
        QVERIFY(named.isValid());
        QCOMPARE(named.data(FacetModel::CountRole).toLongLong(), 0);
        model.setCounts(all); // back in the room: listed again
        QVERIFY(model.valueIndex(QStringLiteral("type"), QStringLiteral("tool_call_end")).isValid());

        // A value the filter names shows though the room has none of it, at 0.
        EventFilter unknown;
        unknown.tools = { QStringLiteral("no_such_tool") };
        model.setFilter(unknown);
        const QModelIndex none = model.valueIndex(QStringLiteral("tool"), QStringLiteral("no_such_tool"));
        QVERIFY(none.isValid());
        QCOMPARE(none.data(FacetModel::CountRole).toLongLong(), 0);
        QCOMPARE(none.data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Checked);
        model.clear();
        QCOMPARE(model.rowCount(types), 0);
    }

    // The room list's filters: rooms with failed calls, blocked rows, a channel type, recent activity.
    void roomFilters()
    {
        RoomListModel rooms;
        RoomFilterProxy proxy(&rooms);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Workspace ws(m_workspace);
        rooms.setRooms(ws.rooms());
        auto shown = [&] {
            QSet<qint64> ids;
            for (int row = 0; row < proxy.rowCount(); ++row)
                ids << proxy.index(row, 0).data(RoomListModel::RoomIdRole).toLongLong();
            return ids;
        };
        auto roomsOf = [&](const QString& sql, const QVariantList& binds = {}) {
            QSet<qint64> ids;
            QSqlQuery q = ws.exec(sql, binds);
            while (q.next())
                ids << q.value(0).toLongLong();
            return ids;
        };
        QCOMPARE(proxy.rowCount(), 8);
        // The Problems column's calls: failed, refused or never answered (it kept only failed ones, so a room
        // with a number in that column could be left out).
        proxy.setWithProblemCalls(true);
        QCOMPARE(shown(), roomsOf(QStringLiteral("SELECT DISTINCT room_id FROM tool_calls WHERE outcome IN "
                                                 "('failed', 'refused', 'unserved')")));
        for (int row = 0; row < proxy.rowCount(); ++row)
            QVERIFY(proxy.index(row, RoomListModel::ProblemsColumn).data().toLongLong() > 0);
        proxy.setWithProblemCalls(false);
        proxy.setWithBlockedRows(true);
        QCOMPARE(shown(), roomsOf(QStringLiteral("SELECT DISTINCT room_id FROM events WHERE blocked = 1")));
        QVERIFY(shown().contains(m_blockedRoom));
        QVERIFY(proxy.rowCount() < 8);
        QCOMPARE(proxy.activeFilters(), 1);
        proxy.setWithBlockedRows(false);
        const QStringList types = proxy.channelTypes();
        QVERIFY(types.size() >= 2);
        for (const QString& type : types) {
            proxy.setChannelType(type);
            QCOMPARE(shown(),
                roomsOf(QStringLiteral("SELECT DISTINCT room_id FROM events WHERE channel_type = ?"), { type }));
        }
        proxy.setChannelType({});
        // Within a span of the newest room's last event.
        qint64 newest = 0;
        for (const RoomSummary& r : rooms.rooms())
            newest = std::max(newest, r.lastMicros);
        const qint64 hour = 3600LL * 1000000;
        proxy.setActiveWithin(hour);
        QSet<qint64> recent;
        for (const RoomSummary& r : rooms.rooms())
            if (r.lastMicros != 0 && r.lastMicros >= newest - hour)
                recent << r.id;
        QCOMPARE(shown(), recent);
        QVERIFY(!recent.isEmpty());
        proxy.setActiveWithin(0);
        QCOMPARE(proxy.rowCount(), 8);
        QCOMPARE(proxy.activeFilters(), 0);
    }

    void roomList()
    {
        RoomListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        Workspace ws(m_workspace);
        model.setRooms(ws.rooms());
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 8);
        QCOMPARE(model.columnCount(), int(RoomListModel::NUM_COLUMNS));
        const RoomSummary first = ws.rooms().first();
        QCOMPARE(
            model.index(0, RoomListModel::EventsColumn).data(RoomListModel::SortRole).toLongLong(), first.eventCount);
        QCOMPARE(model.index(0, RoomListModel::EventsColumn).data().toString(), QLocale().toString(first.eventCount));
        QCOMPARE(model.index(0, 0).data(RoomListModel::RoomIdRole).toLongLong(), first.id);
        QVERIFY(model.index(0, 0).data(RoomListModel::FilterRole).toString().contains(first.nativeId));
        QCOMPARE(model.headerData(RoomListModel::BlockedColumn, Qt::Horizontal).toString(), QStringLiteral("Blocked"));
        // The same rooms with new counts (an import going on): changed in place, no reset, and only the rooms
        // that moved are said to have changed.
        RoomSummaries grown = ws.rooms();
        grown.first().eventCount += 1000;
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setRooms(grown);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 0);
        QCOMPARE(changed.at(0).at(1).toModelIndex().row(), 0);
        model.setRooms(grown); // nothing moved: nothing said
        QCOMPARE(changed.count(), 1);
        RoomSummaries twoApart = grown;
        twoApart[2].unread = 7;
        twoApart[3].notes = 1;
        twoApart[6].review = QStringLiteral("done");
        model.setRooms(twoApart);
        QCOMPARE(changed.count(), 3); // rows 2 and 3 as one run, row 6 alone
        QCOMPARE(changed.at(1).at(0).toModelIndex().row(), 2);
        QCOMPARE(changed.at(1).at(1).toModelIndex().row(), 3);
        QCOMPARE(changed.at(2).at(0).toModelIndex().row(), 6);
        QCOMPARE(changed.at(2).at(1).toModelIndex().row(), 6);
        QCOMPARE(model.room(twoApart[6].id)->review, QStringLiteral("done"));
        model.setRooms(grown);
        changed.clear();
        QCOMPARE(model.index(0, RoomListModel::EventsColumn).data(RoomListModel::SortRole).toLongLong(),
            first.eventCount + 1000);
        // A room by its id: the one the list holds now, with its new counts.
        QVERIFY(model.room(first.id));
        QCOMPARE(model.room(first.id)->nativeId, first.nativeId);
        QCOMPARE(model.room(first.id)->eventCount, first.eventCount + 1000);
        const RoomSummary last = grown.last();
        QCOMPARE(model.room(last.id)->nativeId, last.nativeId);
        // Other rooms: a reset, and the room left out is not found any more.
        model.setRooms(grown.mid(1));
        QCOMPARE(reset.count(), 2);
        QCOMPARE(model.rowCount(), 7);
        QVERIFY(!model.room(first.id));
        QCOMPARE(model.room(last.id)->nativeId, last.nativeId);
        QCOMPARE(model.room(grown.at(1).id), &model.rooms().first());
        model.setRooms({});
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.room(last.id));
    }

    // A room not read yet shows its source's count greyed with an empty ring, and blank where only reading it tells
    // (tools, problems, blocked rows), never a 0; one read in part "N of M"; the room being read "reading… N of M".
    void roomListSaysWhatIsNotReadYet()
    {
        RoomListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        RoomSummary unread;
        unread.id = 1;
        unread.nativeId = QStringLiteral("room-0041");
        unread.unread = 1011;
        RoomSummary part = unread;
        part.id = 2;
        part.nativeId = QStringLiteral("room-big");
        part.eventCount = 41000;
        part.unread = 856444;
        part.failed = 3;
        RoomSummary whole = unread;
        whole.id = 3;
        whole.nativeId = QStringLiteral("room-0001");
        whole.unread = 0;
        whole.eventCount = 12;
        model.setRooms({ unread, part, whole });
        const auto at = [&](int row, int column, int role = Qt::DisplayRole) { return model.index(row, column).data(role); };
        QCOMPARE(at(0, RoomListModel::EventsColumn).toString(), QLocale().toString(1011));
        QCOMPARE(at(0, RoomListModel::EventsColumn, RoomListModel::SortRole).toLongLong(), 1011);
        QVERIFY(!at(0, RoomListModel::EventsColumn, Qt::DecorationRole).value<QIcon>().isNull());
        QCOMPARE(at(0, RoomListModel::EventsColumn, Qt::ToolTipRole).toString(),
            QStringLiteral("Not read yet: its source holds %1 events.").arg(QLocale().toString(1011)));
        // The room's own tooltip says the same, never "0 events, 0 tool calls".
        const QString tip = at(0, RoomListModel::RoomColumn, Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("Not read yet")) && !tip.contains(QStringLiteral("0 events")), qPrintable(tip));
        for (int column : { RoomListModel::ProblemsColumn, RoomListModel::BlockedColumn, RoomListModel::ToolCallsColumn })
            QVERIFY2(!at(0, column).isValid(), qPrintable(at(0, column).toString()));
        QCOMPARE(at(1, RoomListModel::EventsColumn).toString(),
            QStringLiteral("%1 of %2").arg(QLocale().toString(41000), QLocale().toString(897444)));
        QCOMPARE(at(1, RoomListModel::ProblemsColumn).toString(), QLocale().toString(3));
        QVERIFY(!at(1, RoomListModel::EventsColumn, Qt::DecorationRole).value<QIcon>().isNull());
        QCOMPARE(at(2, RoomListModel::EventsColumn).toString(), QLocale().toString(12));
        QVERIFY(at(2, RoomListModel::EventsColumn, Qt::DecorationRole).value<QIcon>().isNull());
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setReading(2);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(at(1, RoomListModel::EventsColumn).toString(),
            QStringLiteral("reading… %1 of %2").arg(QLocale().toString(41000), QLocale().toString(897444)));
        model.setReading(0);
        QCOMPARE(at(1, RoomListModel::EventsColumn).toString(),
            QStringLiteral("%1 of %2").arg(QLocale().toString(41000), QLocale().toString(897444)));
    }

    // The first block is the first screen; the row index then gives the model a row for every event, each
    // block read when something asks for its rows, and each coming in as one batch.
    void eventListReadsBlocks()
    {
        StoreClient store;
        openIn(store);
        EventListModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy loaded(&model, &EventListModel::rowsLoaded);
        QSignalSpy counts(&model, &EventListModel::countsChanged);

        model.setRoom(m_bigRoom);
        QTRY_COMPARE(model.totalCount(), 516);
        QTRY_VERIFY(!model.isLoading());
        QCOMPARE(model.shownCount(), 516);
        QCOMPARE(counts.last().at(0).toLongLong(), 516);
        QCOMPARE(model.rowCount(), 516);
        // Two batches: the first block, then every other row at once when the index came (the index is read on
        // the count connection beside the block: when it comes first, one batch of every row).
        QVERIFY(inserted.count() == 1 || inserted.count() == 2);
        QCOMPARE(inserted.first().at(1).toInt(), 0);
        if (inserted.count() == 2) {
            QCOMPARE(inserted.at(0).at(2).toInt(), EventListModel::BlockSize - 1);
            QCOMPARE(inserted.at(1).at(1).toInt(), EventListModel::BlockSize);
        }
        QCOMPARE(inserted.last().at(2).toInt(), 515);
        const int batches = int(inserted.count());
        QVERIFY(model.loadedRecord(0));
        QCOMPARE(model.blocksInMemory(), 1);

        // A row past the first block is a placeholder until its block comes, then changes in one batch.
        changed.clear();
        const QModelIndex far = model.index(300, EventListModel::TextColumn);
        QVERIFY(!model.loadedRecord(300));
        QCOMPARE(far.data().toString(), QStringLiteral("Loading…"));
        QCOMPARE(far.data(EventListModel::LoadedRole).toBool(), false);
        QVERIFY(model.isLoading());
        QTRY_VERIFY(!model.isLoading());
        QVERIFY(model.loadedRecord(300));
        QCOMPARE(far.data(EventListModel::LoadedRole).toBool(), true);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.last().at(0).toModelIndex().row(), EventListModel::BlockSize - 1); // and its neighbour
        QCOMPARE(changed.last().at(1).toModelIndex().row(), 2 * EventListModel::BlockSize);
        QCOMPARE(loaded.last().at(0).toInt(), EventListModel::BlockSize);
        QCOMPARE(loaded.last().at(1).toInt(), 2 * EventListModel::BlockSize - 1);

        model.fetchRows(0, 515);
        QTRY_VERIFY(!model.isLoading());
        QCOMPARE(model.blocksInMemory(), 3);
        QCOMPARE(inserted.count(), batches);
        // Ascending by index with no gap, as the store serves them.
        for (int row = 1; row < model.rowCount(); ++row)
            QVERIFY(model.loadedRecord(row - 1)->index < model.loadedRecord(row)->index);
        QCOMPARE(model.index(0, EventListModel::IndexColumn).data().toLongLong(), 0);
        QCOMPARE(model.rowOfIndex(model.loadedRecord(515)->index), 515);
    }

    // A room bigger than the model keeps: every row can be reached, the last one in one step, and memory
    // holds no more than MaxBlocks blocks however far one scrolls.
    void bigRoomStaysInWindows()
    {
        QTemporaryDir dir;
        const int extra = (EventListModel::MaxBlocks + 4) * EventListModel::BlockSize;
        const QString source = growSupportRoom(dir, 99 + extra);
        Workspace ws(dir.filePath(QStringLiteral("big.sightline")));
        Importer::import(ws, source);
        const qint64 room = ws.findRooms(QStringLiteral("sup-late-delivery")).first();
        const qint64 events = ws.room(room)->eventCount;
        QVERIFY(events > EventListModel::MaxBlocks * EventListModel::BlockSize);

        StoreClient store;
        openIn(store, ws.path());
        EventListModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRoom(room);
        QTRY_COMPARE(model.shownCount(), events);
        QTRY_VERIFY(!model.isLoading()); // the first block too: under load it can come after the index

        // The last event, found without reading what comes before it.
        QSignalSpy ready(&model, &EventListModel::indexReady);
        const qint64 last = 99 + extra;
        model.locate(last);
        QTRY_COMPARE(ready.count(), 1);
        QCOMPARE(ready.first().at(1).toInt(), model.rowCount() - 1);
        QCOMPARE(model.blocksInMemory(), 2);

        // End to end: the blocks used longest ago make way, and a row read again comes back the same.
        const int early = 2 * EventListModel::BlockSize;
        model.fetchRows(early, early);
        QTRY_VERIFY(model.loadedRecord(early));
        const qint64 earlyIndex = model.loadedRecord(early)->index;
        for (int row = 0; row < model.rowCount(); row += EventListModel::BlockSize) {
            model.fetchRows(row, row);
            QTRY_VERIFY(!model.isLoading());
            QVERIFY(model.blocksInMemory() <= EventListModel::MaxBlocks);
        }
        QCOMPARE(model.blocksInMemory(), EventListModel::MaxBlocks);
        QVERIFY(!model.loadedRecord(early));
        QCOMPARE(model.rowOfIndex(earlyIndex), -1);
        QCOMPARE(model.index(early, EventListModel::IndexColumn).data().toString(), QString()); // a placeholder
        QTRY_VERIFY(model.loadedRecord(early));
        QCOMPARE(model.loadedRecord(early)->index, earlyIndex);
        QCOMPARE(model.loadedRecord(model.rowCount() - 1)->index, last);
    }

    void blockedRowsAndCounts()
    {
        StoreClient store;
        openIn(store);
        EventListModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        EventFilter withBlocked;
        withBlocked.includeBlocked = true;
        model.setRoom(m_blockedRoom, withBlocked);
        QTRY_VERIFY(model.totalCount() > 0);
        QTRY_COMPARE(qint64(model.rowCount()), model.totalCount());
        QTRY_VERIFY(!model.isLoading());
        int blocked = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            const QModelIndex text = model.index(row, EventListModel::TextColumn);
            if (text.data(EventListModel::BlockedRole).toBool()) {
                ++blocked;
                QVERIFY(text.data().toString().startsWith(QLatin1String("[blocked by ")));
                QVERIFY(text.data(Qt::ToolTipRole).toString().contains(QLatin1String("Blocked by")));
                QVERIFY(text.data(Qt::ForegroundRole).isValid());
            }
        }
        QVERIFY(blocked > 0);

        // The default hides them, and the counts say how many are shown of how many there are.
        model.setRoom(m_blockedRoom);
        QTRY_COMPARE(model.shownCount(), model.totalCount() - blocked);
        QTRY_COMPARE(qint64(model.rowCount()), model.shownCount());
    }

    // A room that grew (its import went on, a sync) is read again in place: no reset, new rows inserted at the
    // end, the rows held keep their records until their blocks come again, and an open item stays open.
    void refreshInPlace()
    {
        QTemporaryDir dir;
        const QString name = QStringLiteral("growing.sqlite");
        const QString source = growSupportRoom(dir, 599, name);
        Workspace ws(dir.filePath(QStringLiteral("g.sightline")));
        Importer::import(ws, source);
        const qint64 room = ws.findRooms(QStringLiteral("sup-late-delivery")).first();
        StoreClient store;
        openIn(store, ws.path());
        EventListModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRoom(room);
        QTRY_COMPARE(model.totalCount(), 516);
        model.fetchRows(0, model.rowCount() - 1);
        QTRY_VERIFY(!model.isLoading());
        const qint64 at300 = model.loadedRecord(300)->index;
        QVERIFY(model.setData(model.index(300, 0), true, EventListModel::ExpandedRole));

        growSupportRoom(dir, 1300, name, true); // the same store, 701 rows more
        QCOMPARE(Importer::import(ws, source).added(), 701);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.refresh();
        QVERIFY(model.loadedRecord(300)); // still on screen while it is read again
        QTRY_COMPARE(model.totalCount(), 1217);
        QTRY_VERIFY(!model.isLoading());
        QCOMPARE(reset.count(), 0);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted.first().at(1).toInt(), 516);
        QCOMPARE(inserted.first().at(2).toInt(), 1216);
        QCOMPARE(model.loadedRecord(300)->index, at300);
        QVERIFY(model.index(300, 0).data(EventListModel::ExpandedRole).toBool());
        model.fetchRows(0, model.rowCount() - 1);
        QTRY_VERIFY(!model.isLoading());
        for (int row = 1; row < model.rowCount(); ++row)
            QVERIFY(model.loadedRecord(row - 1)->index < model.loadedRecord(row)->index);
        QCOMPARE(model.loadedRecord(1216)->index, 1300);
    }

    void staleRepliesAreDropped()
    {
        StoreClient store;
        openIn(store);
        EventListModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Workspace ws(m_workspace);
        const qint64 other = ws.rooms().last().id;
        model.setRoom(m_bigRoom);
        model.setRoom(other); // before the first reply arrives
        QTRY_VERIFY(model.totalCount() >= 0);
        QTRY_VERIFY(!model.isLoading());
        QTest::qWait(100);
        QCOMPARE(model.totalCount(), ws.room(other)->eventCount);
        QCOMPARE(qint64(model.rowCount()), ws.countEvents(other, std::make_unique<EventFilter>().get()));
        model.setRoom(0);
        QCOMPARE(model.rowCount(), 0);
    }

    // Timeline mode: one row per item, each call's record at its start, items opened one by one, and the
    // position of each row in its AI response.
    void timelineMode()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("t.sightline")));
        Importer::import(ws, dataFile(QStringLiteral("roomkit/edge_cases.sqlite")));
        const qint64 room = ws.findRooms(QStringLiteral("edge-parallel-same-tool")).first();
        StoreClient store;
        openIn(store, ws.path());

        EventListModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setMode(EventListModel::Mode::Timeline);
        model.setRoom(room);
        QTRY_COMPARE(model.rowCount(), 24 - 8); // eight calls, each end folded into its card
        QTRY_COMPARE(model.totalCount(), 24);
        QTRY_VERIFY(!model.isLoading());
        int cards = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            const QModelIndex i = model.index(row, 0);
            const EventRecord e = i.data(EventListModel::RecordRole).value<EventRecord>();
            QVERIFY(e.type != QLatin1String("tool_call_end"));
            if (e.type == QLatin1String("tool_call_start")) {
                ++cards;
                const ToolCallRecord c = i.data(EventListModel::CallRole).value<ToolCallRecord>();
                QCOMPARE(c.startIndex, std::optional<qint64>(e.index));
                QVERIFY(c.endIndex);
                QCOMPARE(Outcomes::name(c.outcome), QStringLiteral("served"));
                QCOMPARE(EventListModel::GroupPosition(i.data(EventListModel::GroupPositionRole).toInt())
                        != EventListModel::NoGroup,
                    true);
            } else {
                QVERIFY(!i.data(EventListModel::CallRole).isValid());
            }
        }
        QCOMPARE(cards, 8);

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        const QModelIndex card = model.index(model.rowOfIndex(4), 0);
        QVERIFY(!card.data(EventListModel::ExpandedRole).toBool());
        QVERIFY(model.setData(card, true, EventListModel::ExpandedRole));
        QVERIFY(card.data(EventListModel::ExpandedRole).toBool());
        QCOMPARE(changed.count(), 1);
        QVERIFY(changed.first().at(2).value<QList<int>>().contains(EventListModel::ExpandedRole));
        QVERIFY(model.setData(card, true, EventListModel::ExpandedRole)); // already open: nothing changes
        QCOMPARE(changed.count(), 1);

        // Raw mode shows every row again.
        model.setMode(EventListModel::Mode::Raw);
        QTRY_COMPARE(model.rowCount(), 24);
    }

    void jsonTree()
    {
        JsonTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QByteArray payload
            = "{\"type\":\"tool_call_end\",\"content\":{\"tool_name\":\"lookup_order\",\"arguments\":{\"order_id\":\"A-"
              "1\"},\n            \"result\":\"{\\\"order_id\\\": \\\"A-1\\\", \\\"scans\\\": [{\\\"at\\\": 1}, "
              "{\\\"at\\\": 2}]}\",\"status\":\"completed\"},\n            \"metadata\":{\"a "
              "key\":true,\"n\":null},\"long\":\""
            + QByteArray(5000, 'x') + "\"}";
        QVERIFY(model.setJson(payload));
        QCOMPARE(model.rowCount(), 4);
        auto child = [&model](const QModelIndex& parent, const QString& key) {
            for (int row = 0; row < model.rowCount(parent); ++row) {
                const QModelIndex i = model.index(row, JsonTreeModel::KeyColumn, parent);
                if (i.data().toString() == key)
                    return i;
            }
            return QModelIndex();
        };
        const QModelIndex content = child({}, QStringLiteral("content"));
        QCOMPARE(content.siblingAtColumn(JsonTreeModel::ValueColumn).data().toString(), QStringLiteral("{4 members}"));
        const QModelIndex order = child(child(content, QStringLiteral("arguments")), QStringLiteral("order_id"));
        QCOMPARE(order.data(JsonTreeModel::PathRole).toString(), QStringLiteral("$.content.arguments.order_id"));
        QCOMPARE(order.siblingAtColumn(JsonTreeModel::ValueColumn).data().toString(), QStringLiteral("A-1"));
        QCOMPARE(order.data(JsonTreeModel::JsonRole).toString(), QStringLiteral("\"A-1\""));

        // A result written as a string of JSON opens like the object it holds.
        const QModelIndex result = child(content, QStringLiteral("result"));
        QCOMPARE(result.siblingAtColumn(JsonTreeModel::TypeColumn).data().toString(), QStringLiteral("string (JSON)"));
        QVERIFY(model.hasChildren(result));
        const QModelIndex scan = model.index(1, 0, child(result, QStringLiteral("scans")));
        QCOMPARE(scan.data(JsonTreeModel::PathRole).toString(), QStringLiteral("$.content.result.scans[1]"));
        QCOMPARE(child(scan, QStringLiteral("at")).siblingAtColumn(JsonTreeModel::ValueColumn).data().toString(),
            QStringLiteral("2"));

        const QModelIndex odd = child(child({}, QStringLiteral("metadata")), QStringLiteral("a key"));
        QCOMPARE(odd.data(JsonTreeModel::PathRole).toString(), QStringLiteral("$.metadata[\"a key\"]"));

        // Long strings are cut on screen, whole underneath.
        const QModelIndex big = child({}, QStringLiteral("long")).siblingAtColumn(JsonTreeModel::ValueColumn);
        QVERIFY(big.data(JsonTreeModel::CutRole).toBool());
        QVERIFY(big.data().toString().endsWith(QStringLiteral("(4800 more characters)")));
        QCOMPARE(big.data(JsonTreeModel::FullValueRole).toString().size(), 5000);

        QVERIFY(!model.setJson("not json"));
        QCOMPARE(model.rowCount(), 0);
    }

    // What the tree shows of the source's words: a value holding "%2" as it is (a chained arg() put the count of
    // more characters into it), a bidi override or a NUL in a key or a value as its code point (the tree read
    // "invoice <RLO>fdp.exe" as "invoice exe.pdf"); underneath, the value as stored.
    void jsonTreeShowsTheSourcesWordsAsTheyAre()
    {
        JsonTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QString page = QStringLiteral("100%2 off, %1 today ") + QString(2 * 1000 * 1000, QLatin1Char('x'));
        const QString key = QStringLiteral("file") + QChar(0x202E);
        const QString hostile
            = QStringLiteral("invoice ") + QChar(0x202E) + QStringLiteral("fdp.exe and") + QChar(0) + QStringLiteral("hidden");
        const QJsonObject payload { { key, hostile }, { QStringLiteral("page"), page } };
        QVERIFY(model.setJson(QJsonDocument(payload).toJson(QJsonDocument::Compact)));
        QCOMPARE(model.rowCount(), 2);
        const QModelIndex file = model.index(0, JsonTreeModel::KeyColumn);
        QCOMPARE(file.data().toString(), QStringLiteral("file[U+202E]"));
        QCOMPARE(file.siblingAtColumn(JsonTreeModel::ValueColumn).data().toString(),
            QStringLiteral("invoice [U+202E]fdp.exe and[U+0000]hidden"));
        QCOMPARE(file.siblingAtColumn(JsonTreeModel::ValueColumn).data(JsonTreeModel::FullValueRole).toString(),
            hostile);
        const QModelIndex big = model.index(1, JsonTreeModel::ValueColumn);
        QCOMPARE(big.data().toString(),
            page.left(JsonTreeModel::DisplayLimit) + QStringLiteral("… (")
                + QString::number(page.size() - JsonTreeModel::DisplayLimit) + QStringLiteral(" more characters)"));
        QVERIFY(big.data(JsonTreeModel::CutRole).toBool());
        QCOMPARE(big.data(JsonTreeModel::FullValueRole).toString(), page);
    }

    // The raw rows show a bidi override or a NUL in a row's text as its code point, as the timeline and the reports
    // do ("invoice <RLO>fdp.exe" read "invoice exe.pdf").
    void rawRowsShowHiddenCharactersAsCodePoints()
    {
        QTemporaryDir dir;
        QString path;
        qint64 room = 0;
        {
            auto ws = TestSupport::importFixture(dir, QStringLiteral("support.sqlite"));
            room = ws->findRooms(QStringLiteral("sup-duplicate-charge")).first();
            AnnotationStore(*ws).editText(room, 4,
                QStringLiteral("invoice ") + QChar(0x202E) + QStringLiteral("fdp.exe and") + QChar(0) + QStringLiteral("hidden"),
                QStringLiteral("ana"));
            path = ws->path();
        }
        StoreClient store;
        openIn(store, path);
        EventListModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRoom(room);
        QTRY_VERIFY(model.rowCount() > 0 && !model.isLoading());
        const int row = model.rowOfIndex(4);
        QVERIFY(row >= 0);
        QTRY_VERIFY(model.loadedRecord(row));
        QCOMPARE(model.index(row, EventListModel::TextColumn).data().toString(),
            QStringLiteral("invoice [U+202E]fdp.exe and[U+0000]hidden"));
    }

    void clientImportsWithProgress()
    {
        QTemporaryDir dir;
        StoreClient store;
        QSignalSpy opened(&store, &StoreClient::workspaceOpened);
        QSignalSpy started(&store, &StoreClient::importStarted);
        QSignalSpy progress(&store, &StoreClient::importProgress);
        QSignalSpy imported(&store, &StoreClient::imported);
        QSignalSpy finished(&store, &StoreClient::importFinished);
        QSignalSpy failed(&store, &StoreClient::failed);
        const QStringList sources { dataFile(QStringLiteral("roomkit/many_rooms.sqlite")),
            dir.filePath(QStringLiteral("missing.sqlite")) };
        store.open(dir.filePath(QStringLiteral("w.sightline")), sources);
        QCOMPARE(started.count(), 1);
        QVERIFY(store.isImporting());
        QVERIFY(finished.wait(20000));
        QVERIFY(!store.isImporting());
        QCOMPARE(finished.first().first().toBool(), false);
        // The browse connection opens beside the import, and may wait for its write lock on a new workspace: on a
        // busy machine a small import ends first.
        QTRY_COMPARE(opened.count(), 1);
        QStringList failures;
        for (const QList<QVariant>& f : std::as_const(failed))
            failures << f.at(2).toString();
        QVERIFY2(imported.count() == 1, qPrintable(failures.join(QLatin1Char('\n'))));
        QCOMPARE(imported.first().first().value<ImportReport>().added(), 732);
        QVERIFY(progress.count() >= 1);
        QCOMPARE(progress.last().at(0).toLongLong(), 732);
        QCOMPARE(failed.count(), 1); // the missing one, named, while the other imported
        QCOMPARE(failed.first().at(1).value<StoreClient::Kind>(), StoreClient::Kind::Import);
        QVERIFY(failed.first().at(2).toString().contains(QLatin1String("missing.sqlite: no such file")));
    }

    // Every reply names its request, and a request superseded by one of its kind is never answered.
    void repliesNameTheirRequests()
    {
        StoreClient store;
        openIn(store);
        QSignalSpy rooms(&store, &StoreClient::roomsLoaded);
        QSignalSpy details(&store, &StoreClient::detailsLoaded);
        QSignalSpy failed(&store, &StoreClient::failed);
        const quint64 first = store.loadRooms();
        const quint64 second = store.loadRooms(); // before the first is answered
        QVERIFY(second != first);
        QTRY_COMPARE(rooms.count(), 1);
        QTest::qWait(50);
        QCOMPARE(rooms.count(), 1);
        QCOMPARE(rooms.first().first().toULongLong(), second);
        QVERIFY(!rooms.first().at(1).value<RoomSummaries>().isEmpty());

        const quint64 asked = store.loadDetails(m_bigRoom, 3);
        QTRY_COMPARE(details.count(), 1);
        QCOMPARE(details.first().first().toULongLong(), asked);
        QCOMPARE(details.first().at(1).value<EventDetails>().record.index, 3);
        QVERIFY(failed.isEmpty());
    }

    // A failure says which request failed and why; it ends no thread, and the next request is answered. A
    // facet count that fails does not stop the ones after it.
    void failuresNameTheirRequests()
    {
        StoreClient store;
        openIn(store);
        QSignalSpy failed(&store, &StoreClient::failed);
        QSignalSpy facets(&store, &StoreClient::facetsLoaded);
        QSignalSpy done(&store, &StoreClient::taskDone);
        const quint64 broken = store.run(StoreClient::Kind::EditorRead, [](Workspace&, const CancelToken&) { throw std::bad_alloc(); });
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(failed.first().at(0).toULongLong(), broken);
        QCOMPARE(failed.first().at(1).value<StoreClient::Kind>(), StoreClient::Kind::EditorRead);
        QVERIFY2(failed.first().at(2).toString().contains(QLatin1String("not enough memory")),
            qPrintable(failed.first().at(2).toString()));
        const quint64 odd = store.run(StoreClient::Kind::EditorRead, [](Workspace&, const CancelToken&) { throw std::runtime_error("a library's own error"); });
        QTRY_COMPARE(failed.count(), 2);
        QCOMPARE(failed.last().at(0).toULongLong(), odd);
        QVERIFY(failed.last().at(2).toString().contains(QLatin1String("a library's own error")));
        const quint64 ok = store.run(StoreClient::Kind::EditorRead, [](Workspace&, const CancelToken&) {});
        QTRY_COMPARE(done.count(), 1);
        QCOMPARE(done.first().first().toULongLong(), ok);
        // A facet count that fails (its workspace lost a table meanwhile) is named, and the next count goes out
        // and is answered (a failed count used to leave the panes waiting for good).
        store.run(StoreClient::Kind::EditorRead, [](Workspace& ws, const CancelToken&) { ws.exec(QStringLiteral("ALTER TABLE rooms RENAME TO rooms_away")); });
        const quint64 lost = store.loadFacets(m_bigRoom, {});
        QTRY_COMPARE(failed.count(), 3);
        QCOMPARE(failed.last().at(0).toULongLong(), lost);
        QCOMPARE(failed.last().at(1).value<StoreClient::Kind>(), StoreClient::Kind::Facets);
        store.run(StoreClient::Kind::EditorRead, [](Workspace& ws, const CancelToken&) { ws.exec(QStringLiteral("ALTER TABLE rooms_away RENAME TO rooms")); });
        const quint64 next = store.loadFacets(m_bigRoom, {});
        QTRY_COMPARE(facets.count(), 1);
        QCOMPARE(facets.last().first().toULongLong(), next);
        QCOMPARE(facets.last().at(1).value<FacetCounts>().shown, 516);
    }

    // Opening B before A's workspace has answered: A's sources are never imported into B's workspace, nor B's
    // into A's, and nothing of A is reported after B was asked for.
    // A task under way (an export) when another source is opened is answered at once, so that what waits for it
    // ends (the export's progress dialog stayed up for ever, its connections to the client with it); its own
    // answer, when it comes, is dropped.
    void aTaskUnderWayIsAnsweredWhenAnotherSourceOpens()
    {
        QTemporaryDir dir;
        StoreClient store;
        QSignalSpy opened(&store, &StoreClient::workspaceOpened);
        store.open(dir.filePath(QStringLiteral("a.sightline")), { dataFile(QStringLiteral("roomkit/support.sqlite")) });
        QTRY_VERIFY_WITH_TIMEOUT(opened.count() == 1, 20000);
        QString why;
        bool done = false;
        QObject context;
        store.run(StoreClient::Kind::EditorRead, [](Workspace&, const CancelToken&) { QThread::msleep(300); }, &context, [&] { done = true; }, [&](const QString& w) { why = w; });
        store.open(dir.filePath(QStringLiteral("b.sightline")), { dataFile(QStringLiteral("roomkit/support.sqlite")) });
        QVERIFY2(why.contains(QLatin1String("another source was opened")), qPrintable(why));
        QTest::qWait(600);
        QVERIFY(!done);
    }

    void aSecondOpenReplacesTheFirst()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.sightline"));
        const QString b = dir.filePath(QStringLiteral("b.sightline"));
        StoreClient store;
        QSignalSpy opened(&store, &StoreClient::workspaceOpened);
        QSignalSpy finished(&store, &StoreClient::importFinished);
        QSignalSpy imported(&store, &StoreClient::imported);
        QSignalSpy failures(&store, &StoreClient::failed);
        store.open(a, { dataFile(QStringLiteral("roomkit/many_rooms.sqlite")) });
        store.open(b, { dataFile(QStringLiteral("roomkit/edge_cases.sqlite")) });
        QCOMPARE(store.workspacePath(), b);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 20000);
        QTRY_COMPARE(opened.count(), 1); // B's opening may come after its import's end (clientImportsWithProgress)
        QTest::qWait(100);
        QCOMPARE(opened.count(), 1); // A's never comes
        QCOMPARE(opened.first().first().toString(), b);
        // B's import said nothing but its end once in CI, under load: what failed, if anything did, is said.
        QVERIFY2(imported.count() == 1,
            qPrintable(QStringLiteral("imported %1 times; finished %2; failures: %3")
                           .arg(imported.count())
                           .arg(finished.first().first().toBool() ? QStringLiteral("cancelled") : QStringLiteral("not cancelled"))
                           .arg(failures.isEmpty() ? QStringLiteral("none") : failures.first().at(2).toString())));
        QVERIFY(imported.first().first().value<ImportReport>().source.endsWith(QLatin1String("edge_cases.sqlite")));
        Workspace wb(b);
        QCOMPARE(wb.findRooms(QStringLiteral("edge-parallel-same-tool")).size(), 1);
        QVERIFY(wb.findRooms(QStringLiteral("room-0001")).isEmpty());
        QCOMPARE(wb.rooms().size(), manifestFile(QStringLiteral("edge_cases.sqlite")).value(QLatin1String("room_ids")).toArray().size());
        if (QFile::exists(a)) {
            Workspace wa(a);
            for (const RoomSummary& r : wa.rooms())
                QVERIFY2(r.eventCount == 0 || !r.nativeId.startsWith(QLatin1String("edge-")), qPrintable(r.nativeId));
        }
    }

    // A cancel asked while an import is still queued behind another: it never starts (the import used to clear
    // the cancel as it began, and run to its end).
    // What reviewers add shows at its rows: an edit written through the client, then read again, repaints the
    // rows it touched (and no reset), and the roles say what the delegate paints.
    void annotationsRepaintTheirRows()
    {
        StoreClient store;
        openIn(store);
        EventListModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRoom(m_bigRoom);
        QTRY_VERIFY(!model.isLoading());
        const qint64 index = model.loadedRecord(5)->index;
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy edited(&store, &StoreClient::edited);
        QSignalSpy read(&model, &EventListModel::annotationsChanged);
        store.edit([&](AnnotationStore& s) {
            EditSteps steps = s.setMarked(m_bigRoom, index, true, QStringLiteral("ana"));
            steps += s.addLabel(m_bigRoom, index, QStringLiteral("escalate"), QStringLiteral("ana"));
            steps += s.addNote(m_bigRoom, index, QStringLiteral("two notes"), QStringLiteral("ana"));
            return steps;
        });
        QTRY_COMPARE(edited.count(), 1);
        QCOMPARE(edited.first().at(1).value<EditSteps>().size(), 6); // three rows and their journal entries
        model.reloadAnnotations();
        // The room's first read of its annotations (setRoom's) may still be on its way under load: the one asked
        // after the edit is the one that marks the row.
        QTRY_VERIFY(read.count() >= 1);
        const QModelIndex row = model.index(5, 0);
        QTRY_VERIFY(row.data(EventListModel::MarkedRole).toBool());
        QCOMPARE(row.data(EventListModel::LabelsRole).toStringList(), QStringList { QStringLiteral("escalate") });
        QCOMPARE(row.data(EventListModel::NotesRole).toStringList(), QStringList { QStringLiteral("two notes") });
        QVERIFY(QColor(row.data(EventListModel::LabelColorsRole).toMap().value(QStringLiteral("escalate")).toString()).isValid());
        QVERIFY(model.index(5, EventListModel::TextColumn).data().toString().startsWith(QStringLiteral("⚑ #escalate ✎")));
        QVERIFY(!model.index(6, 0).data(EventListModel::MarkedRole).toBool());
        QVERIFY(!changed.isEmpty());
        // Row 5 alone, or every row once when a new label brought a new colour.
        for (const QList<QVariant>& c : changed) {
            const int first = c.at(0).toModelIndex().row(), last = c.at(1).toModelIndex().row();
            QVERIFY((first == 5 && last == 5) || (first == 0 && last == model.rowCount() - 1));
        }
        QCOMPARE(reset.count(), 0);
        // Dropped again: the row is plain once more.
        store.edit([](AnnotationStore& s) {
            s.discard();
            return EditSteps {};
        });
        QTRY_COMPARE(edited.count(), 2);
        model.reloadAnnotations();
        QTRY_VERIFY(read.count() >= 2);
        QTRY_VERIFY(!row.data(EventListModel::MarkedRole).toBool());
        QVERIFY(row.data(EventListModel::LabelsRole).toStringList().isEmpty());
    }

    void journalModel()
    {
        JournalModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        JournalEntry saved;
        saved.id = 1;
        saved.atMs = 1764620000000;
        saved.author = QStringLiteral("ana");
        saved.action = QStringLiteral("review");
        saved.room = QStringLiteral("sup-late-delivery");
        saved.before = QStringLiteral("in review");
        saved.after = QStringLiteral("done");
        saved.saved = true;
        JournalEntry unsaved = saved;
        unsaved.id = 2;
        unsaved.action = QStringLiteral("note_added");
        unsaved.index = 7;
        unsaved.before.clear();
        unsaved.after = QStringLiteral("check");
        unsaved.saved = false;
        model.setEntries({ saved, unsaved });
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, JournalModel::EventColumn).data().toString(), QStringLiteral("room"));
        QCOMPARE(model.index(0, JournalModel::WhatColumn).data().toString(), QStringLiteral("review"));
        QCOMPARE(model.index(1, JournalModel::WhatColumn).data().toString(), QStringLiteral("note added"));
        QCOMPARE(model.index(1, JournalModel::EventColumn).data().toLongLong(), 7);
        QVERIFY(!model.index(0, 0).data(Qt::FontRole).value<QFont>().italic());
        QVERIFY(model.index(1, 0).data(Qt::FontRole).value<QFont>().italic());
        QCOMPARE(model.index(1, 0).data(JournalModel::EventIndexRole).toLongLong(), 7);
        QVERIFY(model.index(0, 0).data(JournalModel::EventIndexRole).isNull());
    }

    void aCancelBeforeTheImportStarts()
    {
        QTemporaryDir dir;
        const QString b = dir.filePath(QStringLiteral("b.sightline"));
        StoreClient store;
        QSignalSpy finished(&store, &StoreClient::importFinished);
        QSignalSpy imported(&store, &StoreClient::imported);
        store.open(dir.filePath(QStringLiteral("a.sightline")), { dataFile(QStringLiteral("roomkit/many_rooms.sqlite")) });
        store.open(b, { dataFile(QStringLiteral("roomkit/edge_cases.sqlite")) }); // queued behind the first
        store.cancelImport();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 20000);
        QCOMPARE(finished.first().first().toBool(), true);
        QCOMPARE(imported.count(), 0);
        QVERIFY(!store.isImporting());
        Workspace ws(b);
        QSqlQuery q = ws.exec(QStringLiteral("SELECT count(*) FROM events"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toLongLong(), 0);
    }

    // A call's error reads once as an error: "Error: " before it unless it says so itself (a tool's "Error executing
    // ..." read "Error: Error executing ...").
    void anErrorSaysErrorOnce()
    {
        QCOMPARE(Presentation::errorLine(QStringLiteral("Error executing tool lookup: 502")),
            QStringLiteral("Error executing tool lookup: 502"));
        QCOMPARE(Presentation::errorLine(QStringLiteral("error: timeout")), QStringLiteral("error: timeout"));
        QCOMPARE(Presentation::errorLine(QStringLiteral("upstream returned 502")), QStringLiteral("Error: upstream returned 502"));
    }
};

QTEST_MAIN(TestModels)
#include "tst_models.moc"
