#pragma once

#include <QDialog>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QRadioButton;

// File ▸ Export Report… (Ctrl+E): the format, which events (the room whole, what the filter shows, the marked
// ones), this room or every room, cards open or not, and where the report goes. The choices are remembered for
// the next export.
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Scope { Room, Filter, Marked };

    // `room`: the room shown, for the file's name; `filter`: the filter bar's text (empty: none).
    ExportDialog(const QString& room, const QString& filter, QWidget* parent);

    QString format() const; // csv, md, html, pdf
    Scope scope() const;
    bool everyRoom() const;
    bool expanded() const;
    QString path() const;

    QComboBox* formatBox() const { return m_format; }
    QLineEdit* pathEdit() const { return m_path; }
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
    QLabel* m_note;
    bool m_confirmed = false; // the file dialog already asked to replace the file chosen
};
