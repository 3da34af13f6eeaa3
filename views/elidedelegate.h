#pragma once

#include <QStyledItemDelegate>

// A column cut where it reads best, whatever its view's elide mode: a time at its start ("…03 09:00:42", the date
// being the room's), so that a narrow column still says when.
class ElideDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    ElideDelegate(Qt::TextElideMode mode, QObject* parent = nullptr);

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;

private:
    Qt::TextElideMode m_mode;
};
