#pragma once

#include <QStyledItemDelegate>

// The room list's first column, cut where it reads best: a title at its end ("Where are my three pa…"), a room id in
// its middle (ids differ at their ends as often as at their starts: "room-0…0041"). One elide mode for the view cut
// titles in their middle ("Where are ...e parcels?"), which a new user could not read.
class RoomTitleDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};
