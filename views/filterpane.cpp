#include "filterpane.h"

#include "facetmodel.h"
#include "timehistogram.h"

#include <QButtonGroup>
#include "timeutil.h"

#include <QDateTime>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QRadioButton>
#include <QSortFilterProxyModel>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace {

enum Blocked { Hide, Include, Only };

constexpr qint64 second = 1000000;

// A time as the From and To fields show it: local, to the second (what parseUserTime reads back).
QString fieldText(qint64 micros)
{
    return QDateTime::fromMSecsSinceEpoch(micros / 1000).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

qint64 floorSecond(qint64 micros)
{
    return micros - ((micros % second) + second) % second;
}

// A span of seconds as people say it: "45 s", "2 min 12 s", "3 h 5 min", "2 days 4 h".
QString spanText(qint64 s)
{
    if (s < 60)
        return FilterPane::tr("%1 s").arg(s);
    if (s < 3600)
        return s % 60 ? FilterPane::tr("%1 min %2 s").arg(s / 60).arg(s % 60) : FilterPane::tr("%1 min").arg(s / 60);
    if (s < 86400)
        return (s / 60) % 60 ? FilterPane::tr("%1 h %2 min").arg(s / 3600).arg((s / 60) % 60)
                             : FilterPane::tr("%1 h").arg(s / 3600);
    const qint64 days = s / 86400, hours = (s / 3600) % 24;
    const QString d = days == 1 ? FilterPane::tr("1 day") : FilterPane::tr("%1 days").arg(days);
    return hours ? FilterPane::tr("%1 %2 h").arg(d).arg(hours) : d;
}

} // namespace

FilterPane::FilterPane(QWidget* parent)
    : QWidget(parent)
    , m_blocked(new QButtonGroup(this))
    , m_blockedCount(new QLabel(this))
    , m_histogram(new TimeHistogram(this))
    , m_from(new QLineEdit(this))
    , m_to(new QLineEdit(this))
    , m_timeNote(new QLabel(this))
    , m_search(new QLineEdit(this))
    , m_model(new FacetModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_values(new QTreeView(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    // Blocked rows: RoomKit's readers hide them; an auditor wants them alone.
    auto* blocked = new QGroupBox(tr("Blocked rows"), this);
    auto* blockedLayout = new QVBoxLayout(blocked);
    auto* choices = new QHBoxLayout;
    const std::pair<Blocked, QString> labels[]
        = { { Hide, tr("&Hide") }, { Include, tr("I&nclude") }, { Only, tr("&Only") } };
    for (const auto& [id, label] : labels) {
        auto* button = new QRadioButton(label, blocked);
        m_blocked->addButton(button, id);
        choices->addWidget(button);
    }
    m_blocked->button(Hide)->setChecked(true);
    m_blocked->button(Hide)->setToolTip(tr("Leave out rows a hook blocked, as RoomKit's readers do (blocked:hide)"));
    m_blocked->button(Include)->setToolTip(tr("Show blocked rows among the others (blocked:include)"));
    m_blocked->button(Only)->setToolTip(tr("Show only the rows a hook blocked (blocked:only)"));
    choices->addStretch();
    blockedLayout->addLayout(choices);
    m_blockedCount->setObjectName(QStringLiteral("blockedCount"));
    blockedLayout->addWidget(m_blockedCount);
    layout->addWidget(blocked);
    connect(m_blocked, &QButtonGroup::idClicked, this, [this](int id) {
        EventFilter f = m_filter;
        f.includeBlocked = id == Include;
        f.blockedOnly = id == Only;
        if (!(f == m_filter))
            emit filterEdited(f);
    });

    // Time: the histogram, the two ends, and the room's last stretch.
    auto* time = new QGroupBox(tr("Time"), this);
    auto* timeLayout = new QVBoxLayout(time);
    timeLayout->addWidget(m_histogram);
    auto* ends = new QFormLayout;
    // Typed whole, as the filter language reads a time (a date, or a date and time, local unless it says Z
    // or an offset): a date-time spin box took typing a section at a time, and a whole date typed into it
    // came out a second off.
    const QString help = tr("A date or a date and time, such as 2026-03-09 or 2026-03-09 12:00:30 (local time "
                            "unless it ends in Z or an offset); Enter applies it");
    for (QLineEdit* edit : { m_from, m_to }) {
        edit->setPlaceholderText(QStringLiteral("yyyy-mm-dd hh:mm:ss"));
        edit->setToolTip(help);
        connect(edit, &QLineEdit::editingFinished, this, [this, help] {
            if (m_showing || m_counts.histogram.isEmpty())
                return;
            const auto typedFrom = TimeUtil::parseUserTime(m_from->text());
            auto typedTo = TimeUtil::parseUserTime(m_to->text());
            // A day alone in To is the whole of it, as a person means "to the 9th".
            if (typedTo && m_to->text().trimmed().size() == 10)
                *typedTo += 86400 * second - second;
            QString problem;
            const bool backwards = typedFrom && typedTo && *typedFrom > *typedTo;
            for (QLineEdit* e : { m_from, m_to }) {
                const bool unread = !(e == m_from ? typedFrom : typedTo);
                const bool bad = unread || (e == m_from && backwards);
                e->setStyleSheet(bad ? QStringLiteral("QLineEdit { border: 1px solid #c0392b; }") : QString());
                e->setToolTip(bad ? tr("Not a time: %1").arg(help) : help);
                if (bad && problem.isEmpty()) {
                    problem = unread ? tr("“%1” is not a time: type a date or a date and time, such as 2026-03-09 "
                                          "or 2026-03-09 12:00:30. The filter applied stays.")
                                           .arg(e->text())
                                     : tr("From is after To: nothing could match. The filter applied stays.");
                }
            }
            m_timeNote->setText(problem);
            m_timeNote->setVisible(!problem.isEmpty());
            if (!problem.isEmpty())
                return; // the filter applied stays
            // The room's own ends, as the fields show them, mean no bound; any other time is one, past the room's end
            // too: a followed source's later events stay out of a range a reviewer typed (a To past the end was
            // dropped, and they came in). "to" holds its whole second.
            const qint64 from = *typedFrom, to = floorSecond(*typedTo);
            std::optional<qint64> after, before;
            if (from != floorSecond(m_counts.firstMicros))
                after = from;
            if (to != floorSecond(m_counts.lastMicros))
                before = to + second;
            editTime(after, before);
        });
    }
    m_from->setObjectName(QStringLiteral("timeFrom"));
    m_to->setObjectName(QStringLiteral("timeTo"));
    ends->addRow(tr("From"), m_from);
    ends->addRow(tr("To"), m_to);
    timeLayout->addLayout(ends);
    auto* quick = new QHBoxLayout;
    const std::pair<qint64, QString> ranges[]
        = { { 15 * 60, tr("15 min") }, { 60 * 60, tr("1 hour") }, { 24 * 60 * 60, tr("1 day") }, { 0, tr("All") } };
    for (const auto& [seconds, label] : ranges) {
        auto* button = new QToolButton(time);
        button->setText(label);
        button->setToolTip(
            seconds ? tr("The last %1 of the room, up to its last event").arg(label) : tr("All of the room's time"));
        connect(button, &QToolButton::clicked, this, [this, s = seconds] { showLast(s); });
        quick->addWidget(button);
    }
    quick->addStretch();
    timeLayout->addLayout(quick);
    m_timeNote->setObjectName(QStringLiteral("timeNote"));
    m_timeNote->setWordWrap(true);
    m_timeNote->setForegroundRole(QPalette::PlaceholderText);
    m_timeNote->hide();
    timeLayout->addWidget(m_timeNote);
    layout->addWidget(time);
    connect(m_histogram, &TimeHistogram::rangeSelected, this,
        [this](qint64 from, qint64 to) { editTime(floorSecond(from), floorSecond(to) + second); });
    connect(m_histogram, &TimeHistogram::rangeCleared, this, [this] { editTime(std::nullopt, std::nullopt); });

    // The values, with a box that finds one among thousands of participants.
    m_search->setPlaceholderText(tr("Find a value…"));
    m_search->setClearButtonEnabled(true);
    m_search->setObjectName(QStringLiteral("facetSearch"));
    layout->addWidget(m_search);
    m_proxy->setSourceModel(m_model);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(FacetModel::ValueColumn);
    m_values->setModel(m_proxy);
    m_values->setObjectName(QStringLiteral("facetValues"));
    m_values->setUniformRowHeights(true);
    m_values->setAlternatingRowColors(true);
    m_values->header()->setStretchLastSection(false);
    m_values->header()->setSectionResizeMode(FacetModel::ValueColumn, QHeaderView::Stretch);
    m_values->header()->setSectionResizeMode(FacetModel::CountColumn, QHeaderView::ResizeToContents);
    // A long name loses its middle, not its end (TEXT_MESSAGE_CONTENT and TEXT_MESSAGE_END differ there); the
    // tooltip has it whole.
    m_values->setTextElideMode(Qt::ElideMiddle);
    m_values->setContextMenuPolicy(Qt::CustomContextMenu);
    layout->addWidget(m_values, 1);
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        if (!text.isEmpty())
            m_values->expandAll();
    });
    connect(m_values, &QWidget::customContextMenuRequested, this, &FilterPane::showValuesMenu);
    connect(m_model, &FacetModel::filterEdited, this, &FilterPane::filterEdited);
    // Sections open but for participants (thousands in a busy room); kinds open as they come.
    auto openSections = [this] {
        for (int row = 0; row < m_proxy->rowCount(); ++row) {
            const QModelIndex section = m_proxy->index(row, 0);
            if (section != m_proxy->mapFromSource(m_model->sectionIndex(QStringLiteral("participant"))))
                m_values->expand(section);
        }
    };
    connect(m_proxy, &QAbstractItemModel::modelReset, this, openSections);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex& parent, int first, int last) {
        if (parent.isValid() && parent == m_proxy->mapFromSource(m_model->sectionIndex(QStringLiteral("kind"))))
            for (int row = first; row <= last; ++row)
                m_values->expand(m_proxy->index(row, 0, parent));
    });
    clear();
    openSections();
}

void FilterPane::clear()
{
    m_counts = FacetCounts();
    m_model->clear();
    m_histogram->setBins(0, 0, {});
    m_blockedCount->clear();
    m_from->setEnabled(false);
    m_to->setEnabled(false);
    m_from->clear();
    m_to->clear();
}

void FilterPane::setCounts(const FacetCounts& counts)
{
    // Another room, or the same one grown (its import went on, a sync): the From and To edits show its span.
    const bool otherSpan = counts.roomId != m_counts.roomId || counts.firstMicros != m_counts.firstMicros
        || counts.lastMicros != m_counts.lastMicros;
    m_counts = counts;
    m_model->setCounts(counts);
    m_histogram->setBins(counts.firstMicros, counts.lastMicros, counts.histogram);
    QString text
        = counts.blocked == 1 ? tr("1 blocked row") : tr("%1 blocked rows").arg(QLocale().toString(counts.blocked));
    if (m_filter.hidesBlocked() && counts.blocked > 0)
        text += tr(", hidden");
    m_blockedCount->setText(text);
    if (otherSpan)
        m_timeNote->hide();
    if (otherSpan)
        showTime();
}

void FilterPane::setFilter(const EventFilter& filter)
{
    // The note of a quick range is about that click: whatever filter comes next takes it away (showLast sets it
    // after the filter it asked for has come back here).
    m_timeNote->hide();
    m_filter = filter;
    m_model->setFilter(filter);
    // outcome:blocked shows blocked rows too (a blocked call's end is one): the choice says what is shown.
    m_blocked->button(filter.blockedOnly ? Only : !filter.hidesBlocked() ? Include : Hide)->setChecked(true);
    showTime();
}

void FilterPane::showTime()
{
    m_histogram->setRange(m_filter.afterMicros, m_filter.beforeMicros);
    const bool known = !m_counts.histogram.isEmpty();
    m_showing = true;
    m_from->setEnabled(known);
    m_to->setEnabled(known);
    if (known) {
        m_from->setText(fieldText(m_filter.afterMicros ? *m_filter.afterMicros : floorSecond(m_counts.firstMicros)));
        m_to->setText(
            fieldText(m_filter.beforeMicros ? *m_filter.beforeMicros - second : floorSecond(m_counts.lastMicros)));
        for (QLineEdit* e : { m_from, m_to })
            e->setStyleSheet(QString());
    } else {
        // A room with no time (none of its rows has one, or it has no rows): its fields are empty, not the last
        // room's dates greyed out.
        m_from->clear();
        m_to->clear();
    }
    m_showing = false;
}

void FilterPane::editTime(std::optional<qint64> after, std::optional<qint64> before)
{
    m_timeNote->hide();
    EventFilter f = m_filter;
    f.afterMicros = after;
    f.beforeMicros = before;
    if (!(f == m_filter))
        emit filterEdited(f);
}

void FilterPane::showLast(qint64 seconds)
{
    if (seconds <= 0 || m_counts.histogram.isEmpty()) {
        editTime(std::nullopt, std::nullopt);
        return;
    }
    const qint64 after = floorSecond(m_counts.lastMicros) - seconds * second;
    editTime(after > m_counts.firstMicros ? std::optional<qint64>(after) : std::nullopt, std::nullopt);
    if (after <= m_counts.firstMicros) {
        // A range longer than the room holds all of it: said, rather than a click that seems to do nothing.
        m_timeNote->setText(tr("The room spans %1, all of it within the last %2.")
                                .arg(spanText((m_counts.lastMicros - m_counts.firstMicros) / second), spanText(seconds)));
        m_timeNote->show();
    }
}

void FilterPane::showValuesMenu(const QPoint& pos)
{
    const QModelIndex index = m_proxy->mapToSource(m_values->indexAt(pos).siblingAtColumn(0));
    if (!index.isValid())
        return;
    const QString field = index.data(FacetModel::FieldRole).toString();
    const QString value = index.data(FacetModel::ValueRole).toString();
    QMenu menu(this);
    if (!field.isEmpty()) {
        menu.addAction(tr("Only “%1”").arg(value), this, [this, index] { emit filterEdited(m_model->only(index)); });
        if (index.data(FacetModel::ExcludedRole).toBool())
            menu.addAction(tr("Stop Leaving Out “%1”").arg(value), this,
                [this, index] { emit filterEdited(m_model->toggled(index)); });
        else
            menu.addAction(
                tr("Leave Out “%1”").arg(value), this, [this, index] { emit filterEdited(m_model->excluded(index)); });
        menu.addSeparator();
    }
    menu.addAction(tr("Clear This Section"), this, [this, index] { emit filterEdited(m_model->cleared(index)); });
    menu.exec(m_values->viewport()->mapToGlobal(pos));
}

QSize FilterPane::sizeHint() const
{
    const QFontMetrics fm = m_values->fontMetrics();
    const int name = std::max(fm.horizontalAdvance(QStringLiteral("TEXT_MESSAGE_CONTENT")),
        fm.horizontalAdvance(QStringLiteral("agent message to platform")));
    // Two levels of indentation, the check box, the count and the scroll bar.
    const int width = name + 2 * m_values->indentation() + 24 + fm.horizontalAdvance(QStringLiteral("1,000,000")) + 40;
    return { width, QWidget::sizeHint().height() };
}
