#include "journalmodel.h"

#include "journal.h"

#include <QDateTime>
#include <QFont>

JournalModel::JournalModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void JournalModel::setEntries(const JournalEntries& entries)
{
    beginResetModel();
    m_entries = entries;
    endResetModel();
}

int JournalModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int JournalModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant JournalModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const JournalEntry& e = m_entries.at(index.row());
    switch (role) {
    case RoomIdRole:
        return e.roomId;
    case EventIndexRole:
        return e.index ? QVariant(*e.index) : QVariant();
    case SavedRole:
        return e.saved;
    case Qt::FontRole:
        if (!e.saved) {
            QFont italic;
            italic.setItalic(true);
            return italic;
        }
        return {};
    case Qt::ToolTipRole:
        return e.saved ? QVariant() : tr("Not saved yet");
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case WhenColumn:
        return QDateTime::fromMSecsSinceEpoch(e.atMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    case WhoColumn:
        return e.author;
    case RoomColumn:
        return e.room;
    case EventColumn:
        return e.index ? QVariant(*e.index) : QVariant(tr("room"));
    case WhatColumn:
        return Journal::describe(e).section(QStringLiteral(": "), 0, 0);
    case BeforeColumn:
        return e.before;
    case AfterColumn:
        return e.after;
    }
    return {};
}

QVariant JournalModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case WhenColumn:
        return tr("When");
    case WhoColumn:
        return tr("Who");
    case RoomColumn:
        return tr("Room");
    case EventColumn:
        return tr("Event");
    case WhatColumn:
        return tr("What");
    case BeforeColumn:
        return tr("Before");
    case AfterColumn:
        return tr("After");
    }
    return {};
}
