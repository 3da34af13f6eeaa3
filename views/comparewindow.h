#pragma once

#include "eventfilter.h"

#include <optional>
#include <QWidget>

class CompareModel;
class StoreClient;
class QLabel;
class QTableView;
class QTextBrowser;

// Two runs side by side (File ▸ Compare With…): a row an aligned step, coloured by what changed, a summary over them,
// and for the step selected what differs key by key (arguments, result), its outcome and duration in each. The first
// difference is selected on open; n and p step between differences.
class CompareWindow : public QWidget
{
    Q_OBJECT
public:
    // `titleA`, `titleB`: what each side is ("support.sqlite, room sup-duplicate-charge").
    CompareWindow(const QString& titleA, const QString& titleB, QWidget* parent = nullptr);

    CompareModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QString summaryText() const;
    QString detailsText() const; // what the details say of the step selected (plain text)
    // Shows a comparison once it is made (CompareModel::setComparison), selecting its first difference.
    void shown();
    // Selects the next (previous) difference; false when there is none that way.
    bool goToDifference(bool forward);
    // Reads room `roomA` of the workspace `store` has open and the room B, aligns them on the store's worker, and
    // shows them: B is `roomB` of the same workspace, or (roomB 0) the room of the source `otherSource` with A's room
    // id, else its first (the source imported into its cached workspace first).
    // `filter`: both sides show only what it keeps (none: every step).
    void compare(StoreClient* store, qint64 roomA, qint64 roomB, const QString& otherSource = {},
        const std::optional<EventFilter>& filter = std::nullopt);

signals:
    // A row of A's side double-clicked: its event in the room it came from (the main window shows it).
    void goToEvent(qint64 roomId, qint64 index);

private:
    void showDetails(int row);

    CompareModel* m_model;
    QLabel* m_summary;
    QLabel* m_sides; // what A and B are
    QString m_header; // the summary and the per-tool figures, as shown once the comparison is made
    QTableView* m_view;
    QTextBrowser* m_details;
    QString m_titleA, m_titleB;
    qint64 m_roomA = 0;
};
