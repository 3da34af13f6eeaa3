#pragma once

#include <array>
#include <climits>
#include <optional>
#include <QString>
#include <QStringList>
#include <QVector>

// What a reader asks for, with RoomKit's EventFilter semantics (seeds/000, SOURCES.md §1.6):
// exclude_types wins over types, both time bounds are exclusive, and blocked rows are left out
// unless includeBlocked is set. In the timeline (timelineItems) an item matches when any of its rows does: a
// card whose end failed matches outcome:failed and type:tool_call_end.
// A span of numbers, both ends included: tool call durations in milliseconds (duration:>5000 is 5001 and more),
// or event indexes (index:100..250).
struct NumberRange
{
    qint64 min = 0;
    qint64 max = LLONG_MAX;
    bool operator==(const NumberRange&) const = default;
};

struct EventFilter
{
    // Each list field: a row matches one of its values (when there are any) and none of its excluded ones. The
    // same field given twice means either value, in the filter bar, the panes and on the command line alike.
    QStringList types, excludeTypes; // exclude wins over types, as RoomKit's exclude_types does
    QStringList kinds, excludeKinds; // canonical kinds (eventkind.h), across every source system
    QStringList channels, excludeChannels;
    QStringList channelTypes, excludeChannelTypes;
    QStringList participants, excludeParticipants;
    QStringList tools, excludeTools;
    QStringList outcomes, excludeOutcomes; // a card matches by its call's outcome
    QStringList groups, excludeGroups; // AI responses: a RoomKit correlation id, an AG-UI run id, a CraftBot task
    // A call's pairing (exact, id_only, name_only, guessed, start_only, end_only) and duration: matched at the
    // row where its card is (its start; its end when it has none), and by the card in the timeline.
    QStringList pairings, excludePairings;
    QVector<NumberRange> durations, excludeDurations;
    // Rows by their index in the room (a report of events 100 to 250): in one of the ranges, in none of the
    // excluded ones. In the timeline an item whose card holds such a row, as for every other field.
    QVector<NumberRange> indexes, excludeIndexes;
    // What reviewers added (AnnotationStore), matched at the row (a card: any of its rows): a label's name, a
    // word in a note (ASCII letters in either case), and a state: marked, noted, labelled, redacted.
    QStringList labels, excludeLabels;
    QStringList notes, excludeNotes;
    QStringList states, excludeStates;
    std::optional<qint64> afterMicros; // exclusive
    std::optional<qint64> beforeMicros; // exclusive
    QStringList words, excludeWords; // full-text: every word or "phrase" in message text, arguments or results
    bool blockedOnly = false; // only the rows a hook blocked (includeBlocked is then implied)
    bool includeBlocked = false;
    bool topLevelOnly = false; // RoomKit's top_level_only: no thread replies (parent_event_id is null)
    bool timelineItems = false; // one row per timeline item: rows folded into a card or a message left out

    // Blocked rows are left out unless a term asks for them: blocked:include or blocked:only, or
    // outcome:blocked (the end of a blocked call is itself a blocked row: asking for those calls and hiding
    // their ends found nothing, without saying why).
    bool hidesBlocked() const
    {
        return !includeBlocked && !blockedOnly && !outcomes.contains(QLatin1String("blocked"));
    }

    // How many terms the filter holds (each value, word, bound, and blocked rows other than hidden): 0 when it
    // lets every unblocked row through. What the window shows to make an active filter seen at a glance.
    int terms() const;

    bool operator==(const EventFilter&) const = default;
};

// The fields of a filter that hold lists of values, with their name in the filter bar and their column: a row
// matches one of `any` (when there are any) and none of `none`. One table for the filter bar's parser and
// writer, the CLI and the SQL, so that a new field is added in one place.
struct EventFilterList
{
    const char* name;
    const char* column;
    QStringList EventFilter::*any;
    QStringList EventFilter::*none;
};

inline const std::array<EventFilterList, 12>& eventFilterLists()
{
    static const std::array<EventFilterList, 12> lists { {
        { "type", "type", &EventFilter::types, &EventFilter::excludeTypes },
        { "kind", "kind", &EventFilter::kinds, &EventFilter::excludeKinds },
        { "channel", "channel_id", &EventFilter::channels, &EventFilter::excludeChannels },
        { "channel_type", "channel_type", &EventFilter::channelTypes, &EventFilter::excludeChannelTypes },
        { "participant", "participant_id", &EventFilter::participants, &EventFilter::excludeParticipants },
        { "tool", "tool_name", &EventFilter::tools, &EventFilter::excludeTools },
        { "outcome", "outcome", &EventFilter::outcomes, &EventFilter::excludeOutcomes },
        { "group", "group_id", &EventFilter::groups, &EventFilter::excludeGroups },
        { "pairing", "pairing", &EventFilter::pairings, &EventFilter::excludePairings }, // its call's (EventQuery)
        { "label", "label", &EventFilter::labels, &EventFilter::excludeLabels }, // annotations (EventQuery)
        { "note", "note", &EventFilter::notes, &EventFilter::excludeNotes },
        { "is", "is", &EventFilter::states, &EventFilter::excludeStates },
    } };
    return lists;
}

inline int EventFilter::terms() const
{
    int n = int(words.size() + excludeWords.size() + durations.size() + excludeDurations.size() + indexes.size()
                + excludeIndexes.size())
        + (afterMicros ? 1 : 0) + (beforeMicros ? 1 : 0) + (includeBlocked || blockedOnly ? 1 : 0)
        + (topLevelOnly ? 1 : 0);
    for (const EventFilterList& list : eventFilterLists())
        n += int((this->*list.any).size() + (this->*list.none).size());
    return n;
}

// Which window of the filtered rows a page holds. A page always comes back ascending by index.
struct PageRequest
{
    int limit = 50;
    int offset = 0;
    bool newestFirst = false; // the window is the tail; offset counts back from the newest end
    std::optional<qint64> afterIndex; // exclusive cursor; not with beforeIndex
    std::optional<qint64> beforeIndex; // exclusive cursor: the last `limit` rows before it
};
