#include "elidedelegate.h"

ElideDelegate::ElideDelegate(Qt::TextElideMode mode, QObject* parent)
    : QStyledItemDelegate(parent)
    , m_mode(mode)
{
}

void ElideDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    option->textElideMode = m_mode;
}
