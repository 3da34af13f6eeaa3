#pragma once

#include "roomdock.h"

#include <optional>

class QLabel;
class WaterfallView;

// The timing waterfall as a dock (View ▸ Waterfall): the room's tool calls under the filter of the bar and panes,
// laid out on the store's worker, only while the dock is shown. A toolbar fits, zooms and saves what is in view
// as PNG or SVG.
class WaterfallDock : public RoomDock
{
    Q_OBJECT
public:
    WaterfallDock(StoreClient* client, QWidget* parent = nullptr);
    // Shows the call at timeline row `index` (the card selected), when it has a bar.
    void showCall(qint64 index);
    // What a saved image says it shows, on a line above the waterfall (the room, the filter).
    void setCaption(const QString& caption) { m_caption = caption; }
    // Saves what is in view, under its caption: PNG, or SVG when the name ends in .svg. False, with why, when it
    // could not.
    bool saveImage(const QString& path, QString* error) const;

    WaterfallView* view() const { return m_view; }
    QLabel* summary() const { return m_summary; }

    static constexpr qint64 GapThresholdUs = 60'000'000; // idle longer than a minute collapses into a break

signals:
    void callActivated(qint64 index);
    void laidOut(); // the view shows the latest room and filter asked

protected:
    void reread(quint64 ticket) override;

private:
    void askSave();

    WaterfallView* m_view;
    QLabel* m_summary;
    std::optional<qint64> m_pendingCall; // selected before the layout came
    QString m_caption;
};
