#pragma once

#include <optional>
#include <QMetaType>
#include <QString>
#include <QVector>

// What a reviewer adds to an event, a tool card or a room: a note, a label, a mark, or (rooms) a review status.
// Kept against the room and the event's source index (AnnotationStore), never the workspace's row.
struct Annotation
{
    enum class Kind { Note, Label, Mark, Review };

    qint64 id = 0;
    qint64 roomId = 0;
    std::optional<qint64> index; // the event's source index (a card: its start's); nullopt: the room itself
    Kind kind = Kind::Note;
    QString value; // a note's text, a label's name, a review status
    QString author;
    qint64 atMs = 0; // when it was made, ms since the epoch
    bool saved = false; // false: made since the workspace was last saved
    bool detached = false; // its event is no longer in the source (a rotated log dropped it)

    static QString kindName(Kind kind);
    static std::optional<Kind> kindFromName(const QString& name);
};

Q_DECLARE_METATYPE(Annotation)
using Annotations = QVector<Annotation>;

// A room's review, as the room list shows it.
namespace ReviewStatus {
inline const QString Unreviewed = QStringLiteral("unreviewed");
inline const QString InReview = QStringLiteral("in review");
inline const QString Done = QStringLiteral("done");
inline QStringList all() { return { Unreviewed, InReview, Done }; }
} // namespace ReviewStatus
