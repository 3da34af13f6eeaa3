#pragma once

#include "sources/importer.h"

#include <QDialog>
#include <QHash>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

// File ▸ Open Database…: a PostgreSQL database holding RoomKit's store or kaboo-runtime's threads. It connects
// in the background (the window never waits on a server), says which store it found and lists its rooms with
// their events before anything is imported, biggest first; the one chosen is read first. A password is asked
// for only when the server wants one that PGPASSWORD and ~/.pgpass did not give, and is kept in memory only:
// the recent databases are remembered without it.
class OpenDatabaseDialog : public QDialog
{
    Q_OBJECT
public:
    explicit OpenDatabaseDialog(QWidget* parent = nullptr);
    ~OpenDatabaseDialog() override;

    // Shows the dialog to pick a database (File > Open Database).
    void choose();
    // Connects to `uri` (its password, if it holds one, is used and not shown). With `openWhenConnected`, a
    // successful connection opens the database at once (its biggest room first), as a URI named on the
    // command line or in Open Recent does; the dialog shows only when it needs a password or failed.
    void connectTo(const QString& uri, bool openWhenConnected);

    // The databases opened before, newest first, without passwords.
    static QStringList recentDatabases();
    static void remember(const QString& uri);

signals:
    // Open `uri` (with the password typed, if any) and show `firstRoom` first.
    void openRequested(const QString& uri, const QString& firstRoom);

private:
    void startConnecting();
    void surveyed(const Importer::SourceSurvey& survey);
    void failedToConnect(const QString& message, bool passwordNeeded, bool refused);
    void setStatus(const QString& text, bool error);
    QString uriToConnect() const; // the URI typed, with the password typed
    void openChosen();

    QComboBox* m_uri;
    QPushButton* m_connect;
    QLabel* m_passwordLabel;
    QLineEdit* m_password;
    QLabel* m_status;
    QTreeWidget* m_rooms;
    QDialogButtonBox* m_buttons;
    QString m_connectedUri; // what the listed rooms came from, with its password
    QString m_givenPassword; // a password the URI itself held
    QHash<QString, QString> m_passwords; // by role@host:port, in memory only: asked once per role and server
    quint64 m_attempt = 0; // a connection's answer is used only while it is the latest asked
    bool m_openWhenConnected = false;
};
