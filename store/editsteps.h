#pragma once

#include <QMetaType>
#include <QVector>

// The rows one edit brought into the workspace (present) or took out of it: undoing it flips each back,
// redoing it flips them again (AnnotationStore::apply). Rows are never deleted before a save, so ids hold.
struct EditStep
{
    enum Table { Annotations, Journal, Redactions, Edits };
    Table table = Annotations;
    qint64 id = 0;
    bool present = true; // what the edit made of the row
};

using EditSteps = QVector<EditStep>;
Q_DECLARE_METATYPE(EditSteps)
