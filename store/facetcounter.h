#pragma once

#include "facetcounts.h"

#include <array>
#include <QByteArray>
#include <QByteArrayList>
#include <QHash>
#include <QString>
#include <QVector>
#include <optional>

struct sqlite3_stmt;

// The filter panes' counts of one room, added up row by row from EventQuery::facets' columns (Workspace::facets runs
// the query and reads what reviewers added): each field's values counted over the rows the rest of the filter lets
// through (a value of a row it leaves out listed with 0), labels and states several to a row, the blocked and
// unblocked rows, and the rows over time.
class FacetCounter
{
public:
    // EventQuery::facets' columns, in order (selectList() writes them).
    enum Column { Type, KindOf, Channel, ChannelType, Participant, Tool, OutcomeOf, Blocked, Created, Failed, Seq, Flags };
    // The SELECT list of those columns, `failed` (the mask of the filter's parts a row fails) in its place.
    static QString selectList(const QString& failed);
    // Bits of what a reviewer added to a row (added()).
    enum Added { Marked = 1, Noted = 2, Labelled = 4 };

    // The room's span (from its first event to its last) cut into `bins` bins; no histogram when it has no time.
    // `words`: the workspace's words by code (WordCodes::all), whose codes the rows hold for a type, a kind and a tool.
    FacetCounter(qint64 roomId, std::optional<std::pair<qint64, qint64>> span, int bins,
        const QHash<QByteArray, QString>& words);

    // The outcome of a call, by its start row (which holds none of its own but carries its call's), given in the
    // order of their start rows. Kept as two arrays walked along with the rows (which come in that order): a hash of
    // a quarter of a million calls was a fifth of the panes' count at a million events.
    void setCallStart(qint64 seq, const QByteArray& outcome);
    // What reviewers added to the row at `seq`: Added bits, and a label's name for Labelled.
    void addAdded(qint64 seq, Added what, const QByteArray& label = {});

    // One row of EventQuery::facets, as the statement stands on it.
    void add(sqlite3_stmt* row);
    // Adds the counts of `other`, which counted the rows after this one's, of the same room, with the same additions
    // (a copy of this one made before any row, Workspace::facets' second thread): the result is what one counter
    // given both in turn makes.
    void merge(const FacetCounter& other);
    // The counts, at most `limit` values a field (the others summed in FacetCounts::more), most rows first.
    FacetCounts result(int limit) const;

private:
    struct Field
    {
        const char* name;
        int bit; // EventQuery's mask bit that is the field's own
        int groupColumn; // the column that says what a value sits under, or -1
        QHash<QByteArray, qint64> counts;
        QHash<QByteArray, QByteArray> groups;
    };

    QHash<QByteArray, QString> m_words; // code -> name
    QByteArray m_toolCall; // the kind's code
    FacetCounts m_out;
    double m_binWidth = 1;
    std::array<Field, 7> m_fields;
    const QByteArray* callOutcome(qint64 seq);
    QVector<qint64> m_startSeqs; // ascending
    QVector<quint8> m_startOutcomes; // into m_outcomeNames
    qsizetype m_nextStart = 0; // where the walk is
    QByteArrayList m_outcomeNames;
    QHash<qint64, QVector<QByteArray>> m_labelsAt;
    QHash<qint64, int> m_addedAt;
    QHash<QByteArray, qint64> m_labelCounts;
    QHash<QByteArray, qint64> m_stateCounts;
};
