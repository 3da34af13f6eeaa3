#pragma once

#include <optional>
#include <utility>

#include <QDialog>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QRadioButton;
class QScrollArea;
class QStackedWidget;
class QTimer;
struct ReportPreview;

// File ▸ Export Report… (Ctrl+E): the format; which events (the room whole, what the filter shows, the marked
// ones, a range of indexes); which rooms (the one shown, the ones selected in the room list, all) in one report or
// a report each; cards open or not; where it goes; the key that signs its manifest; and a preview of the first
// page, made by the report's own writer as the choices change.
// The format, the folder, the key and whether the whole room or the filter's events go are remembered for the next
// export; the marked events, a range and the rooms are not, so that a later report is never partial without the
// user choosing it.
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Scope { Room, Filter, Marked, Range };
    enum class Rooms { Shown, Selected, Every };

    // What the window has to offer: the room shown (its id names the file), the filter bar's text (empty: none),
    // how many rooms the room list selects and the workspace holds, and the selected events' first and last index.
    struct Context
    {
        QString room;
        QString filter;
        int selectedRooms = 1;
        int rooms = 1;
        std::optional<std::pair<qint64, qint64>> selection;
    };

    ExportDialog(const Context& context, QWidget* parent);

    QString format() const; // csv, md, html, pdf, jsonl
    Scope scope() const;
    // The range's first and last index (Scope::Range); either may be open: from the room's start, to its end.
    std::pair<std::optional<qint64>, std::optional<qint64>> range() const;
    Rooms rooms() const;
    bool eachRoom() const; // a report per room, in the folder path() names
    bool expanded() const;
    QString path() const;
    QString signingKey() const; // an Ed25519 private key's PEM file; empty: the manifest is not signed

    QComboBox* formatBox() const { return m_format; }
    QLineEdit* pathEdit() const { return m_path; }
    QLineEdit* keyEdit() const { return m_key; }
    QLineEdit* fromEdit() const { return m_from; }
    QLineEdit* toEdit() const { return m_to; }
    QCheckBox* eachRoomBox() const { return m_eachRoom; }
    QLabel* previewStatus() const { return m_previewStatus; }
    QLabel* previewPage() const { return m_page; }
    QPlainTextEdit* previewText() const { return m_text; }
    void setScope(Scope scope);
    void setRooms(Rooms rooms);
    void setReplaceConfirmed(bool confirmed) { m_confirmed = confirmed; } // as if the file dialog had asked

    // The preview asked for by previewWanted(), or why it could not be made. A preview asked for since is
    // waited for: an older one is never shown over the choices that changed.
    void showPreview(quint64 ticket, const ReportPreview& preview);
    void showPreviewError(quint64 ticket, const QString& why);
    quint64 previewTicket() const { return m_ticket; }

    void accept() override; // remembers the choices

signals:
    // The choices changed (a quarter of a second ago, so that typing makes one preview): make one under `ticket`.
    void previewWanted(quint64 ticket);

private:
    void suggestPath(); // the room's name with the format's suffix, in the last folder; a folder for a report each
    void choicesChanged();

    Context m_context;
    QComboBox* m_format;
    QButtonGroup* m_scope;
    QButtonGroup* m_rooms;
    QLineEdit* m_from;
    QLineEdit* m_to;
    QCheckBox* m_eachRoom;
    QCheckBox* m_expanded;
    QLabel* m_pathLabel;
    QLineEdit* m_path;
    QLineEdit* m_key;
    QLabel* m_note;
    QLabel* m_previewStatus;
    QStackedWidget* m_preview;
    QScrollArea* m_pageArea;
    QLabel* m_page;
    QPlainTextEdit* m_text;
    QTimer* m_previewTimer;
    quint64 m_ticket = 0;
    bool m_confirmed = false; // the file dialog already asked to replace the file chosen
};
