#include "workspacecompactor.h"

#include "storeerror.h"
#include "workspace.h"

#include <QFileInfo>
#include <QSqlQuery>
#include <QStringList>

namespace {

struct Packed
{
    const char* table;
    const char* key;
    QStringList columns;
};

// The values TextPacker packs (the rest, what reviewers write, stays text): those of 256 bytes and more are at
// least 64 characters long, and pack() says whether they shrink (it keeps its last values: the SET packs each once).
QString packable(const QString& column)
{
    return QStringLiteral("(typeof(%1) = 'text' AND length(%1) >= 64 AND typeof(pack(%1)) = 'blob')").arg(column);
}

// A payload is packed against the formats' words (packpayload) whatever its length: one still text that would
// shrink, and one packed alone before there was a vocabulary (its first byte TextPacker::TextTag) that would
// shrink further, are packed so. packpayload() keeps its last values: the SET packs each once.
QString payloadPackable()
{
    return QStringLiteral("((typeof(payload) = 'text' AND typeof(packpayload(payload)) = 'blob') OR "
                          "(typeof(payload) = 'blob' AND substr(payload, 1, 1) = x'01' AND "
                          "typeof(packpayload(unpack(payload))) = 'blob' AND "
                          "length(packpayload(unpack(payload))) < length(payload)))");
}

QString shrinks(const QString& column)
{
    return column == QLatin1String("payload") ? payloadPackable() : packable(column);
}

QString packing(const QString& column)
{
    const QString packed = column == QLatin1String("payload") ? QStringLiteral("packpayload(unpack(payload))")
                                                              : QStringLiteral("pack(%1)").arg(column);
    return QStringLiteral("%1 = CASE WHEN %2 THEN %3 ELSE %1 END").arg(column, shrinks(column), packed);
}

} // namespace

WorkspaceCompactor::WorkspaceCompactor(Workspace& ws)
    : m_ws(ws)
{
}

qint64 WorkspaceCompactor::fileBytes() const
{
    return QFileInfo(m_ws.path()).size() + QFileInfo(m_ws.path() + QStringLiteral("-wal")).size();
}

WorkspaceCompactor::Result WorkspaceCompactor::run(const Progress& progress)
{
    const QVector<Packed> tables {
        { "events", "id", { QStringLiteral("payload"), QStringLiteral("text") } },
        { "tool_calls", "id", { QStringLiteral("arguments"), QStringLiteral("result") } },
        { "search_text", "event_id", { QStringLiteral("body"), QStringLiteral("arguments"), QStringLiteral("result") } },
    };
    Result result;
    result.bytesBefore = fileBytes();
    QVector<std::pair<qint64, qint64>> spans;
    qint64 total = 0;
    for (const Packed& t : tables) {
        QSqlQuery q = m_ws.exec(QStringLiteral("SELECT min(%1), max(%1) FROM %2").arg(QLatin1String(t.key), QLatin1String(t.table)));
        const bool any = q.next() && !q.value(0).isNull();
        spans.append(any ? std::pair(q.value(0).toLongLong(), q.value(1).toLongLong()) : std::pair(qint64(1), qint64(0)));
        total += spans.constLast().second - spans.constLast().first + 1;
    }
    // search_text's update trigger tells the full-text index a row's old words and its new ones: a packed value has
    // the same words, so the trigger is set aside while its rows are packed, in the batch's own transaction.
    QSqlQuery trigger = m_ws.exec(QStringLiteral("SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = "
                                                 "'search_text_updated'"));
    const QString triggerSql = trigger.next() ? trigger.value(0).toString() : QString();
    trigger.finish();

    qint64 done = 0;
    for (qsizetype k = 0; k < tables.size() && !result.stopped; ++k) {
        const Packed& t = tables[k];
        QStringList sets;
        QStringList any;
        for (const QString& c : t.columns) {
            sets << packing(c);
            any << shrinks(c);
        }
        const QString update = QStringLiteral("UPDATE %1 SET %2 WHERE %3 BETWEEN ? AND ? AND (%4)")
                                   .arg(QLatin1String(t.table), sets.join(QStringLiteral(", ")), QLatin1String(t.key),
                                       any.join(QStringLiteral(" OR ")));
        const bool searchText = QLatin1String(t.table) == QLatin1String("search_text") && !triggerSql.isEmpty();
        for (qint64 from = spans[k].first; from <= spans[k].second; from += BatchRows) {
            const qint64 to = std::min(from + BatchRows - 1, spans[k].second);
            m_ws.exec(QStringLiteral("BEGIN IMMEDIATE"));
            try {
                if (searchText)
                    m_ws.exec(QStringLiteral("DROP TRIGGER search_text_updated"));
                QSqlQuery q = m_ws.exec(update, { from, to });
                result.packed += std::max(0, q.numRowsAffected());
                q.finish();
                if (searchText)
                    m_ws.exec(triggerSql);
                m_ws.exec(QStringLiteral("COMMIT"));
            } catch (...) {
                m_ws.rollbackQuietly("ROLLBACK");
                throw;
            }
            done += to - from + 1;
            if (progress && !progress(done, total)) {
                result.stopped = true;
                break;
            }
        }
    }
    if (!result.stopped) {
        // The file written anew holds only its pages in use, and the log is emptied into it.
        m_ws.exec(QStringLiteral("VACUUM"));
        QSqlQuery checkpoint = m_ws.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
        while (checkpoint.next()) { }
    }
    result.bytesAfter = fileBytes();
    return result;
}
