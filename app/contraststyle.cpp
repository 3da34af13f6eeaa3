#include "contraststyle.h"

#include <QStyleFactory>
#include <QStyleOption>

ContrastStyle::ContrastStyle()
    : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion")))
{
}

void ContrastStyle::drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter, const QWidget* widget) const
{
    if (element == PE_IndicatorCheckBox || element == PE_IndicatorRadioButton || element == PE_IndicatorItemViewItemCheck) {
        // Fusion's outline is Window darkened by 140 %: a window colour this light gives an outline of about #6a6d71,
        // which shows on the dark fields and lists alike. Only the indicator's own copy of the palette changes.
        if (const auto* button = qstyleoption_cast<const QStyleOptionButton*>(option)) {
            QStyleOptionButton copy(*button);
            copy.palette.setColor(QPalette::Window, QColor(0x95, 0x99, 0x9e));
            QProxyStyle::drawPrimitive(element, &copy, painter, widget);
            return;
        }
        if (const auto* item = qstyleoption_cast<const QStyleOptionViewItem*>(option)) {
            QStyleOptionViewItem copy(*item);
            copy.palette.setColor(QPalette::Window, QColor(0x95, 0x99, 0x9e));
            QProxyStyle::drawPrimitive(element, &copy, painter, widget);
            return;
        }
        QStyleOption copy(*option);
        copy.palette.setColor(QPalette::Window, QColor(0x95, 0x99, 0x9e));
        QProxyStyle::drawPrimitive(element, &copy, painter, widget);
        return;
    }
    QProxyStyle::drawPrimitive(element, option, painter, widget);
}
