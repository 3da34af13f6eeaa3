#include "teamdialog.h"

#include "sources/pgconnection.h"
#include "teamlink.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

TeamDialog::TeamDialog(TeamLink* link, QWidget* parent)
    : QDialog(parent)
    , m_link(link)
    , m_uri(new QLineEdit(this))
    , m_state(new QLabel(this))
    , m_attach(new QPushButton(tr("&Attach"), this))
    , m_sync(new QPushButton(tr("&Sync Now"), this))
    , m_detach(new QPushButton(tr("&Detach"), this))
    , m_conflicts(new QWidget(this))
{
    setWindowTitle(tr("Team Review"));
    auto* intro = new QLabel(tr("A team store is a PostgreSQL database where a team shares one review: notes, labels, "
                                "marks, review statuses, edits and redactions, with their journal. Changes made here go up "
                                "when they are saved; teammates' come down as they make them."),
        this);
    intro->setWordWrap(true);
    m_uri->setPlaceholderText(QStringLiteral("postgresql://login@host/database"));
    m_uri->setToolTip(tr("The password comes from PGPASSWORD or ~/.pgpass, or is asked for; it is never written down"));
    m_uri->setClearButtonEnabled(true);
    m_state->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_state->setMinimumWidth(460);
    auto* form = new QFormLayout;
    form->addRow(tr("Team &store:"), m_uri);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_attach, QDialogButtonBox::ActionRole);
    buttons->addButton(m_sync, QDialogButtonBox::ActionRole);
    buttons->addButton(m_detach, QDialogButtonBox::ActionRole);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_state);
    layout->addWidget(m_conflicts);
    new QGridLayout(m_conflicts);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_attach, &QPushButton::clicked, this, [this] {
        const QString uri = m_uri->text().trimmed();
        if (!PgConnection::isUri(uri)) {
            m_state->setText(tr("A team store is named by a postgresql:// URI, such as postgresql://ana@db.example.com/review"));
            return;
        }
        m_state->setText(tr("Connecting to %1…").arg(PgConnection::withoutPassword(uri)));
        m_link->attach(uri);
    });
    connect(m_sync, &QPushButton::clicked, m_link, &TeamLink::sync);
    connect(m_detach, &QPushButton::clicked, m_link, &TeamLink::detach);
    connect(m_uri, &QLineEdit::textChanged, this, [this] { update(); });
    connect(m_link, &TeamLink::statusChanged, this, [this] {
        if (!m_uri->hasFocus() || m_uri->text().isEmpty())
            m_uri->setText(m_link->status().uri);
        update();
    });
    m_uri->setText(m_link->status().uri);
    update();
}

QString TeamDialog::statusText() const
{
    return m_state->text();
}

void TeamDialog::update()
{
    const TeamLink::Status& s = m_link->status();
    const bool attached = m_link->isAttached();
    const QString typed = PgConnection::withoutPassword(m_uri->text().trimmed());
    m_attach->setEnabled(!typed.isEmpty() && (typed != s.uri || !s.connected));
    m_attach->setText(attached && typed != s.uri ? tr("&Attach Instead") : attached ? tr("&Connect") : tr("&Attach"));
    m_sync->setEnabled(attached);
    m_detach->setEnabled(attached);
    QStringList lines;
    if (!attached) {
        lines << tr("This workspace shares its review with no team store.");
    } else {
        lines << (s.connected ? tr("Connected to %1 as <b>%2</b> (%3).").arg(s.uri.toHtmlEscaped(), s.login.toHtmlEscaped(), s.role)
                              : tr("Attached to %1, not connected: %2").arg(s.uri.toHtmlEscaped(), s.problem.toHtmlEscaped()));
        lines << (s.syncedMs > 0 ? tr("Last caught up: %1.").arg(QDateTime::fromMSecsSinceEpoch(s.syncedMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")))
                                 : tr("Not caught up yet."));
        lines << (s.pending == 1 ? tr("Waiting to go up: 1 saved change.") : tr("Waiting to go up: %1 saved changes.").arg(s.pending));
        if (s.role == QLatin1String("auditor"))
            lines << tr("An auditor reads, exports and verifies: changes made here stay here.");
        for (const QString& problem : s.unapplied)
            lines << tr("A teammate's change is not applied here yet: %1").arg(problem.toHtmlEscaped());
        if (!s.present.isEmpty())
            lines << tr("Reviewing the room shown: %1.").arg(s.present.join(QStringLiteral(", ")).toHtmlEscaped());
    }
    m_state->setText(lines.join(QStringLiteral("<br>")));
    showConflicts();
}

void TeamDialog::showConflicts()
{
    auto* grid = static_cast<QGridLayout*>(m_conflicts->layout());
    while (QLayoutItem* item = grid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_settleButtons.clear();
    const TeamConflicts& conflicts = m_link->isAttached() ? m_link->status().conflicts : TeamConflicts();
    m_conflicts->setVisible(!conflicts.isEmpty());
    if (conflicts.isEmpty()) {
        adjustSize(); // no gap where they were
        return;
    }
    auto* heading = new QLabel(tr("<b>Changes made each without knowing the other</b> (the one that reached the store "
                                  "later applies until one is kept):"),
        m_conflicts);
    heading->setWordWrap(true);
    grid->addWidget(heading, 0, 0, 1, 3);
    int row = 1;
    const auto when = [](qint64 ms) { return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm")); };
    // An edit's value may be long: its first line, cut, in the list; all of it in the tooltip.
    const auto shortly = [](const QString& value) {
        const QString line = value.section(QLatin1Char('\n'), 0, 0);
        return (line.size() > 60 ? line.left(59) + QStringLiteral("…") : line).toHtmlEscaped();
    };
    for (const TeamConflict& c : conflicts) {
        auto* what = new QLabel(c.isReview()
                ? tr("%1: %2 set <i>%3</i> (at %4); %5 set <i>%6</i> (at %7) not knowing it, which reached the store later and applies")
                      .arg(c.room.toHtmlEscaped(), c.theirsAuthor.toHtmlEscaped(), c.theirs, when(c.theirsAtMs),
                          c.mineAuthor.toHtmlEscaped(), c.mine, when(c.mineAtMs))
                : tr("%1, event %2, its %3: %4 made “%5” (at %6); %7 made “%8” (at %9) not knowing it, which reached the store later and shows")
                      .arg(c.room.toHtmlEscaped())
                      .arg(c.seq.value_or(0))
                      .arg(c.field, c.theirsAuthor.toHtmlEscaped(), shortly(c.theirs), when(c.theirsAtMs),
                          c.mineAuthor.toHtmlEscaped(), shortly(c.mine), when(c.mineAtMs)),
            m_conflicts);
        what->setWordWrap(true);
        if (!c.isReview())
            what->setToolTip(tr("%1's:\n%2\n\n%3's:\n%4").arg(c.theirsAuthor, c.theirs, c.mineAuthor, c.mine));
        grid->addWidget(what, row, 0);
        int column = 1;
        // A status is kept by its name; an edit by whose it is (the server makes theirs again, or leaves mine).
        for (const auto& [status, author, side] : { std::tuple(c.theirs, c.theirsAuthor, QStringLiteral("theirs")),
                 std::tuple(c.mine, c.mineAuthor, QStringLiteral("mine")) }) {
            auto* keep = new QPushButton(c.isReview() ? tr("Keep %1 (%2)").arg(status, author) : tr("Keep %1's").arg(author),
                m_conflicts);
            const qint64 id = c.id;
            const QString chosen = c.isReview() ? status : side;
            connect(keep, &QPushButton::clicked, this, [this, id, chosen] { m_link->settle(id, chosen); });
            grid->addWidget(keep, row, column++);
            m_settleButtons << keep;
        }
        ++row;
    }
}
