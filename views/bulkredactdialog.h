#pragma once

#include "redactionstore.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QTreeWidget;
class StoreClient;

// Redact by pattern: built-in patterns (e-mail addresses, phone numbers, payment cards, secrets) and a regular
// expression, in the room shown or in every room. Find lists every match (room, event, where, what) before
// anything changes; Redact then redacts them all, as one change that Undo takes back.
class BulkRedactDialog : public QDialog
{
    Q_OBJECT
public:
    BulkRedactDialog(StoreClient* client, qint64 roomId, const QString& roomName, QWidget* parent = nullptr);

    void setBuiltin(const QString& name, bool on);
    void setExpression(const QString& expression);
    void setEveryRoom(bool every);
    void setReason(const QString& reason);
    void find(); // reads the matches on the store's count connection; found() when they are listed
    // The matches found and left ticked in the preview: what Redact redacts.
    RedactionMatches matches() const;
    const RedactionMatches& found() const { return m_matches; }
    QString reason() const;
    QTreeWidget* preview() const { return m_preview; }
    QPushButton* redactButton() const { return m_redact; }
    QLabel* summary() const { return m_summary; }

signals:
    void foundMatches(int matches);

private:
    QVector<RedactionPatterns::Pattern> patterns(QString* error) const;
    void changed(); // the patterns or the scope changed: the matches listed are no longer theirs
    void ticked(); // the count on the Redact button follows the ticks

    StoreClient* m_client;
    qint64 m_roomId;
    QMap<QString, QCheckBox*> m_builtins;
    QLineEdit* m_expression;
    QRadioButton* m_thisRoom;
    QRadioButton* m_everyRoom;
    QComboBox* m_reason;
    QPushButton* m_find;
    QPushButton* m_redact;
    QTreeWidget* m_preview;
    QLabel* m_summary;
    RedactionMatches m_matches;
    quint64 m_request = 0;
};
