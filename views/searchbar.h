#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;

// Find in the room: words searched in message text, tool arguments and results, stepped through with F3 and
// Shift+F3 without hiding the rest of the timeline (the filter bar hides; this finds). "n of N" says where the
// current match is; All Rooms lists the matches of every room.
class SearchBar : public QWidget
{
    Q_OBJECT
public:
    explicit SearchBar(QWidget* parent = nullptr);

    QLineEdit* edit() const { return m_edit; }
    QString text() const; // the words searched, trimmed
    // Where the current match is: `at` counted from 0, or -1 when the current row is not a match.
    void setPosition(int at, int total);
    void setSearching(); // the matches are being found
    QString positionText() const;

signals:
    void searchChanged(const QString& text); // after a pause in typing, or Enter
    void next();
    void previous();
    void searchAllRooms(const QString& text);

private:
    QLineEdit* m_edit;
    QLabel* m_position;
    QToolButton* m_previous;
    QToolButton* m_next;
    QToolButton* m_allRooms;
    QTimer* m_pause;
    QString m_searched;
};
