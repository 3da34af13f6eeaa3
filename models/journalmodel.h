#pragma once

#include "journalentry.h"

#include <QAbstractTableModel>

// The edit journal, one entry a row, newest last: when, who, the room and event, what was done, before and
// after. Entries not saved yet are in italics.
class JournalModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { WhenColumn, WhoColumn, RoomColumn, EventColumn, WhatColumn, BeforeColumn, AfterColumn, NUM_COLUMNS };
    enum Roles { RoomIdRole = Qt::UserRole, EventIndexRole, SavedRole };

    explicit JournalModel(QObject* parent = nullptr);

    void setEntries(const JournalEntries& entries);
    const JournalEntries& entries() const { return m_entries; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    JournalEntries m_entries;
};
