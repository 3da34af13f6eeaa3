#include "roomtitledelegate.h"

#include "roomlistmodel.h"

void RoomTitleDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    // The cell shows the id when the room has no title of its own.
    const bool id = option->text == index.data(RoomListModel::NativeIdRole).toString();
    option->textElideMode = id ? Qt::ElideMiddle : Qt::ElideRight;
}
