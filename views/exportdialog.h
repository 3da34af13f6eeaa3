#pragma once

#include <QDialog>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QRadioButton;

// File ▸ Export Report… (Ctrl+E): the format, which events (the room whole, what the filter shows, the marked
// ones), this room or every room, cards open or not, where the report goes, and the key that signs its manifest.
// The format, the folder, the key and whether the whole room or the filter's events go are remembered for the next
// export; "the marked events" is not, so that a later report is never partial without the user choosing it.
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Scope { Room, Filter, Marked };

    // `room`: the room shown, for the file's name; `filter`: the filter bar's text (empty: none).
    ExportDialog(const QString& room, const QString& filter, QWidget* parent);

    QString format() const; // csv, md, html, pdf, jsonl
    Scope scope() const;
    bool everyRoom() const;
    bool expanded() const;
    QString path() const;
    QString signingKey() const; // an Ed25519 private key's PEM file; empty: the manifest is not signed

    QComboBox* formatBox() const { return m_format; }
    QLineEdit* pathEdit() const { return m_path; }
    QLineEdit* keyEdit() const { return m_key; }
    void setScope(Scope scope);
    void setReplaceConfirmed(bool confirmed) { m_confirmed = confirmed; } // as if the file dialog had asked

    void accept() override; // remembers the choices

private:
    void suggestPath(); // the room's name with the format's suffix, in the last folder

    QString m_room;
    QComboBox* m_format;
    QButtonGroup* m_scope;
    QRadioButton* m_filterScope;
    QCheckBox* m_everyRoom;
    QCheckBox* m_expanded;
    QLineEdit* m_path;
    QLineEdit* m_key;
    QLabel* m_note;
    bool m_confirmed = false; // the file dialog already asked to replace the file chosen
};
