#pragma once

#include <QWidget>

class Editor;
class EventListModel;
class QLabel;
class QListWidget;
class QPushButton;

// The notes, labels and mark of the selected event (of the room when none is selected), with who wrote each
// and when, and buttons to add a note or remove the one selected. Under the details pane.
class NotesPanel : public QWidget
{
    Q_OBJECT
public:
    NotesPanel(Editor* editor, EventListModel* events, QWidget* parent = nullptr);

    void showItem(qint64 index); // -1: the room
    QLabel* header() const { return m_header; }
    QListWidget* list() const { return m_list; }

private:
    void refresh();

    Editor* m_editor;
    EventListModel* m_events;
    qint64 m_index = -1;
    QLabel* m_header;
    QListWidget* m_list;
    QPushButton* m_add;
    QPushButton* m_remove;
};
