#include "opendatabasedialog.h"

#include "settings.h"
#include "sources/pgconnection.h"

#include <memory>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QThread>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace {

// What a connection attempt on its thread ends with.
struct Attempt
{
    Importer::SourceSurvey survey;
    QString error;
    bool passwordNeeded = false;
    bool refused = false;
};
} // namespace

OpenDatabaseDialog::OpenDatabaseDialog(QWidget* parent)
    : QDialog(parent)
    , m_uri(new QComboBox(this))
    , m_connect(new QPushButton(tr("&Connect"), this))
    , m_passwordLabel(new QLabel(tr("&Password:"), this))
    , m_password(new QLineEdit(this))
    , m_status(new QLabel(this))
    , m_rooms(new QTreeWidget(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Open Database"));
    auto* intro = new QLabel(tr("A PostgreSQL database holding RoomKit's store or kaboo-runtime's threads. It is only "
                                "read, in read-only transactions: a role that may SELECT is enough."),
        this);
    intro->setWordWrap(true);

    m_uri->setEditable(true);
    m_uri->addItems(recentDatabases());
    m_uri->setCurrentText(QString());
    m_uri->lineEdit()->setPlaceholderText(QStringLiteral("postgresql://user@host:5432/dbname"));
    m_uri->setMinimumWidth(440);
    m_uri->setInsertPolicy(QComboBox::NoInsert);
    m_uri->setToolTip(tr("postgresql://user@host:port/dbname, with ?sslmode=require or any other libpq setting, or "
                         "postgresql:///dbname?service=name for a service in pg_service.conf"));
    auto* uriRow = new QHBoxLayout;
    uriRow->addWidget(m_uri, 1);
    uriRow->addWidget(m_connect);
    auto* hint = new QLabel(tr("Passwords come from PGPASSWORD or ~/.pgpass, or are asked for here; they are never "
                               "saved."),
        this);
    hint->setWordWrap(true);
    QFont small = hint->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    hint->setFont(small);

    m_password->setEchoMode(QLineEdit::Password);
    m_passwordLabel->setBuddy(m_password);
    m_passwordLabel->hide();
    m_password->hide();

    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_rooms->setHeaderLabels({ tr("Room"), tr("Title"), tr("Events") });
    m_rooms->setRootIsDecorated(false);
    m_rooms->setUniformRowHeights(true);
    m_rooms->setSortingEnabled(true);
    m_rooms->header()->setStretchLastSection(false);
    m_rooms->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_rooms->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_rooms->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_rooms->setToolTip(tr("The room chosen is read first and shown first; the rest follow, biggest first."));
    m_rooms->hide();

    auto* form = new QFormLayout;
    auto* databaseLabel = new QLabel(tr("&Database:"), this);
    databaseLabel->setBuddy(m_uri);
    form->addRow(databaseLabel, uriRow);
    form->addRow(QString(), hint);
    form->addRow(m_passwordLabel, m_password);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_rooms, 1);
    layout->addStretch(); // while no rooms are listed: the rest stays at the top
    layout->addWidget(m_buttons);
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(false);
    resize(640, 460);

    // A retry after a password keeps what the first try was for (to open at once, or to list the rooms).
    connect(m_connect, &QPushButton::clicked, this, &OpenDatabaseDialog::startConnecting);
    connect(m_uri->lineEdit(), &QLineEdit::returnPressed, m_connect, &QPushButton::click);
    connect(m_password, &QLineEdit::returnPressed, m_connect, &QPushButton::click);
    // Another database typed: what was listed is of the one before.
    connect(m_uri, &QComboBox::currentTextChanged, this, [this] {
        m_buttons->button(QDialogButtonBox::Open)->setEnabled(false);
        m_rooms->hide();
        m_connectedUri.clear();
    });
    connect(m_rooms, &QTreeWidget::itemDoubleClicked, this, &OpenDatabaseDialog::openChosen);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &OpenDatabaseDialog::openChosen);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // A connection still under way when the dialog closes is answered to nobody.
    connect(this, &QDialog::finished, this, [this] { ++m_attempt; });
}

OpenDatabaseDialog::~OpenDatabaseDialog() = default;

QStringList OpenDatabaseDialog::recentDatabases()
{
    return Settings::recentDatabases();
}

void OpenDatabaseDialog::remember(const QString& uri)
{
    const QString bare = PgConnection::withoutPassword(uri);
    QStringList recent = recentDatabases();
    recent.removeAll(bare);
    recent.prepend(bare);
    Settings::setRecentDatabases(recent.mid(0, 10));
}

void OpenDatabaseDialog::choose()
{
    m_openWhenConnected = false;
    m_passwordLabel->hide();
    m_password->hide();
    m_password->clear();
    m_givenPassword.clear();
    m_connectedUri.clear();
    m_rooms->clear();
    m_rooms->hide();
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(false);
    setStatus(QString(), false);
    open();
    m_uri->setFocus();
}

void OpenDatabaseDialog::connectTo(const QString& uri, bool openWhenConnected)
{
    // A password in the URI is used but never shown: the field shows the URI without it.
    m_givenPassword = QUrl(uri).password();
    m_uri->setCurrentText(PgConnection::withoutPassword(uri));
    m_password->clear();
    m_openWhenConnected = openWhenConnected;
    startConnecting();
}

namespace {
// Whose password a URI needs: the role on the server.
QString roleAt(const QString& uri)
{
    const QUrl url(uri);
    return QStringLiteral("%1@%2:%3").arg(url.userName(), url.host(), QString::number(url.port(5432)));
}
} // namespace

QString OpenDatabaseDialog::uriToConnect() const
{
    const QString typed = m_uri->currentText().trimmed();
    if (!QUrl(typed).password().isEmpty())
        return typed;
    QString password = m_password->isVisible() && !m_password->text().isEmpty() ? m_password->text() : m_givenPassword;
    if (password.isEmpty())
        password = m_passwords.value(roleAt(typed)); // typed before for this role on this server
    return password.isEmpty() ? typed : PgConnection::withPassword(typed, password);
}

void OpenDatabaseDialog::setStatus(const QString& text, bool error)
{
    m_status->setText(text);
    // The error colour the details pane uses for failed calls, readable on light and dark themes alike.
    m_status->setStyleSheet(error ? QStringLiteral("color: #d32f2f;") : QString());
}

void OpenDatabaseDialog::startConnecting()
{
    const QString uri = uriToConnect();
    if (!PgConnection::isUri(uri)) {
        setStatus(tr("Give a URI that starts with postgresql://, such as postgresql://reader@db.example.com/roomkit"),
            true);
        if (!isVisible())
            open();
        return;
    }
    const quint64 attempt = ++m_attempt;
    m_connect->setEnabled(false);
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(false);
    setStatus(tr("Connecting to %1…").arg(PgConnection::displayName(uri)), false);
    // On a thread of its own: a server that does not answer takes seconds to give up.
    auto result = std::make_shared<Attempt>();
    QThread* thread = QThread::create([uri, result] {
        try {
            result->survey = Importer::survey(uri);
        } catch (const PgPasswordNeeded& e) {
            result->error = e.message();
            result->passwordNeeded = true;
            result->refused = e.refused();
        } catch (const StoreError& e) {
            result->error = e.message();
        } catch (const std::bad_alloc&) {
            // Anything else leaving a thread's function is std::terminate: the whole window gone.
            result->error = QStringLiteral("out of memory while reading the database");
        } catch (const std::exception& e) {
            result->error = QString::fromLocal8Bit(e.what());
        } catch (...) {
            result->error = QStringLiteral("an unexpected error while reading the database");
        }
    });
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    connect(thread, &QThread::finished, this, [this, attempt, uri, result] {
        if (attempt != m_attempt)
            return;
        m_connect->setEnabled(true);
        if (!result->error.isEmpty()) {
            failedToConnect(result->error, result->passwordNeeded, result->refused);
            return;
        }
        m_connectedUri = uri;
        if (const QString password = QUrl(uri).password(); !password.isEmpty())
            m_passwords.insert(roleAt(uri), password);
        surveyed(result->survey);
    });
    thread->start();
}

void OpenDatabaseDialog::failedToConnect(const QString& message, bool passwordNeeded, bool refused)
{
    setStatus(message, true);
    if (passwordNeeded) {
        m_passwordLabel->show();
        m_password->show();
        if (!refused)
            setStatus(tr("The server asks for a password: type it and press Connect. It is kept only while "
                         "Sightline runs."),
                false);
        m_password->selectAll();
        m_password->setFocus();
    }
    if (!isVisible())
        open();
}

void OpenDatabaseDialog::surveyed(const Importer::SourceSurvey& survey)
{
    const bool roomkit = survey.identity.system == QLatin1String("roomkit");
    qint64 total = 0;
    m_rooms->setSortingEnabled(false);
    m_rooms->clear();
    for (qsizetype i = 0; i < survey.rooms.size(); ++i) {
        const RoomInfo& room = survey.rooms[i];
        auto* item = new QTreeWidgetItem(m_rooms);
        item->setText(0, room.nativeId);
        item->setText(1, roomkit ? room.title : room.owner);
        item->setData(2, Qt::DisplayRole, survey.events[i]);
        item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        total += survey.events[i];
    }
    m_rooms->setSortingEnabled(true);
    m_rooms->sortByColumn(2, Qt::DescendingOrder);
    if (m_rooms->topLevelItemCount() > 0)
        m_rooms->setCurrentItem(m_rooms->topLevelItem(0));
    const int rooms = int(survey.rooms.size());
    const QString events = total == 1 ? tr("1 event") : tr("%1 events").arg(QLocale().toString(total));
    if (roomkit) {
        setStatus(tr("RoomKit's PostgreSQL store (schema %1): %2, %3.")
                      .arg(survey.identity.schemaVersion,
                          rooms == 1 ? tr("1 room") : tr("%1 rooms").arg(QLocale().toString(rooms)), events),
            false);
    } else {
        setStatus(tr("kaboo-runtime's PostgreSQL threads: %1, %2.")
                      .arg(rooms == 1 ? tr("1 thread") : tr("%1 threads").arg(QLocale().toString(rooms)), events),
            false);
    }
    // RoomKit's rooms seldom have a title (the column shows only when one has); kaboo's threads have an owner
    // (their title is their first user message, known once they are read).
    m_rooms->headerItem()->setText(1, roomkit ? tr("Title") : tr("Owner"));
    bool titled = false;
    for (int i = 0; i < m_rooms->topLevelItemCount(); ++i)
        titled = titled || !m_rooms->topLevelItem(i)->text(1).isEmpty();
    m_rooms->setColumnHidden(1, !titled);
    m_rooms->header()->setSectionResizeMode(0, titled ? QHeaderView::ResizeToContents : QHeaderView::Stretch);
    m_rooms->setVisible(rooms > 0);
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(true);
    if (m_openWhenConnected) {
        openChosen();
        return;
    }
    m_buttons->button(QDialogButtonBox::Open)->setFocus();
}

void OpenDatabaseDialog::openChosen()
{
    if (m_connectedUri.isEmpty())
        return;
    const QTreeWidgetItem* chosen = m_rooms->currentItem();
    remember(m_connectedUri);
    emit openRequested(m_connectedUri, chosen ? chosen->text(0) : QString());
    accept();
}
