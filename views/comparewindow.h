#pragma once

#include "eventfilter.h"

#include <optional>
#include <QPointer>
#include <QWidget>

class CompareModel;
struct StepText;
class StoreClient;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTextBrowser;

// Two runs side by side (File ▸ Compare With…): a row an aligned step, coloured by what changed, a summary over them,
// and for the step selected what differs key by key (arguments, result), its outcome and duration in each. The first
// steps of each run are shown at once, aligned alone, while the whole is read and aligned; then the first difference
// is selected; n and p step between differences. Export… writes the comparison as a report (CompareReport).
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
    bool isComplete() const { return m_complete; } // the whole comparison shown, not the first steps alone
    // Shows a comparison once it is made (CompareModel::setComparison), selecting its first difference.
    void shown();
    // Compares A with another room of B's source (its id there); false when B has no such room.
    bool setRoomB(const QString& nativeId);
    // What a user typed into B's room box and Return: the room of that name, or the one whose name holds it; else
    // B stays as it was and the status line says why.
    void chooseRoomB(const QString& typed);
    QStringList roomsOfB() const; // what the B's room list offers
    // Compares again under the filter `text` (the filter language; empty: every step); false, and said, when it does
    // not parse.
    bool setFilterText(const QString& text);
    // Selects the next (previous) difference; false when there is none that way.
    bool goToDifference(bool forward);
    // Reads room `roomA` of the workspace `store` has open and the room B, aligns them on the store's worker, and
    // shows them: B is `roomB` of the same workspace, or (roomB 0) the room of the source `otherSource` with A's room
    // id, else its first (the source imported into its cached workspace first).
    // `filter`: both sides show only the pairs it keeps (none: every step).
    void compare(StoreClient* store, qint64 roomA, qint64 roomB, const QString& otherSource = {},
        const std::optional<EventFilter>& filter = std::nullopt);
    // Writes the comparison as a report (md or html) at `path`, its manifest beside it, signed with the key at
    // `signingKey` when there is one; the window says where it went, or why it did not.
    void exportTo(const QString& format, const QString& path, const QString& signingKey = {});

signals:
    // A row of A's side double-clicked: its event in the room it came from (the main window shows it).
    void goToEvent(qint64 roomId, qint64 index);
    // A report written (exportTo): its path, or the error that stopped it.
    void exported(const QString& path, const QString& error);

private:
    void showSides(bool fallback); // A and B as compared now: B's source and its room
    void compareAll();
    void compareAgain(); // compareAll() under a new filter or room of B, the window saying so
    void failed(const QString& why);
    void showDetails(int row);
    void renderDetails(int row, const StepText* textA, const StepText* textB);
    void askExport();
    void applyFilter();

    CompareModel* m_model;
    QLabel* m_summary;
    QLabel* m_sides; // what A and B are
    QLabel* m_status; // where an export went, what was wrong with a filter
    QLineEdit* m_filterEdit; // the filter both runs are compared under: Return compares again
    QComboBox* m_roomsB; // B's room, any of its source's: a choice compares again
    QLabel* m_roomsBLabel;
    QPushButton* m_export;
    QString m_header; // the summary and the per-tool figures, as shown once the comparison is made
    QTableView* m_view;
    QTextBrowser* m_details;
    QString m_titleA, m_titleB;
    // What is compared, for the whole comparison after the first steps, the texts of a step, and an export.
    QPointer<StoreClient> m_store;
    qint64 m_roomA = 0;
    qint64 m_roomB = 0; // in the workspace at m_pathB
    QString m_pathB; // empty: A's own workspace
    QString m_roomNameA, m_roomNameB;
    std::optional<EventFilter> m_filter;
    bool m_complete = false;
};
