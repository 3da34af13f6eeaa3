#pragma once

#include <QProxyStyle>

// Fusion for the dark palette, with check boxes and radio buttons that show when unticked. Fusion draws their
// outline as the window colour darkened, which on a dark window is the colour of the field behind it: an unticked
// box in the Filters dock was invisible. Here their outline is taken from a lighter colour; everything else is
// Fusion's own.
class ContrastStyle : public QProxyStyle
{
    Q_OBJECT
public:
    ContrastStyle();

    void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
        const QWidget* widget = nullptr) const override;
};
