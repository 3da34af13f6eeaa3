#include "toolstatsmodel.h"

#include <QLocale>

ToolStatsModel::ToolStatsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ToolStatsModel::setStats(const ToolStatsList& stats)
{
    beginResetModel();
    m_stats = stats;
    endResetModel();
}

qint64 ToolStatsModel::totalCalls() const
{
    qint64 calls = 0;
    for (const ToolStats& s : m_stats)
        calls += s.calls;
    return calls;
}

Outcome ToolStatsModel::outcomeOf(int column)
{
    switch (column) {
    case ServedColumn:
        return Outcome::Served;
    case FailedColumn:
        return Outcome::Failed;
    case RefusedColumn:
        return Outcome::Refused;
    case BlockedColumn:
        return Outcome::Blocked;
    case UnservedColumn:
        return Outcome::Unserved;
    case CancelledColumn:
        return Outcome::Cancelled;
    default:
        return Outcome::None;
    }
}

QString ToolStatsModel::durationText(qint64 ms)
{
    const QLocale locale;
    if (ms < 1000)
        return tr("%1 ms").arg(ms);
    if (ms < 60'000)
        return tr("%1 s").arg(locale.toString(ms / 1000.0, 'f', ms < 10'000 ? 2 : 1));
    if (ms < 3'600'000)
        return tr("%1 min").arg(locale.toString(ms / 60'000.0, 'f', 1));
    return tr("%1 h").arg(locale.toString(ms / 3'600'000.0, 'f', 1));
}

int ToolStatsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_stats.size());
}

int ToolStatsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant ToolStatsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ToolStats& s = m_stats[index.row()];
    const int column = index.column();
    if (role == ToolNameRole)
        return s.toolName;
    if (role == OutcomeRole)
        return outcomeOf(column) == Outcome::None ? QVariant() : QVariant(Outcomes::name(outcomeOf(column)));
    // A duration as a plain number, -1 when there is none (std::optional here trips GCC's maybe-uninitialized).
    const std::optional<qint64> picked = column == P50Column ? s.p50Ms
        : column == P95Column                                 ? s.p95Ms
        : column == MaxColumn                                 ? s.maxMs
        : column == TotalColumn && s.timedCalls > 0           ? std::optional<qint64>(s.totalMs)
                                                              : std::nullopt;
    const qint64 duration = picked.value_or(-1);
    const bool isDuration = column >= P50Column;
    qint64 number = 0;
    if (column == CallsColumn)
        number = s.calls;
    else if (outcomeOf(column) != Outcome::None)
        number = s.count(outcomeOf(column));
    switch (role) {
    case Qt::DisplayRole:
        if (column == ToolColumn)
            return s.toolName.isEmpty() ? tr("(unnamed)") : s.toolName;
        if (isDuration)
            return duration >= 0 ? durationText(duration) : QStringLiteral("—");
        return QLocale().toString(number);
    case SortRole:
        if (column == ToolColumn)
            return s.toolName;
        if (isDuration)
            return duration;
        return number;
    case Qt::TextAlignmentRole:
        return column == ToolColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (outcomeOf(column) != Outcome::None && number > 0)
            return tr("Click to show the %1 %2 calls").arg(number).arg(s.toolName + QLatin1Char(' ') + Outcomes::name(outcomeOf(column)));
        if (isDuration)
            return s.timedCalls == 1 ? tr("Over the 1 call with a duration; percentiles by nearest rank")
                                     : tr("Over the %L1 calls with a duration; percentiles by nearest rank").arg(s.timedCalls);
        if (column == ToolColumn || column == CallsColumn)
            return tr("Double-click to show this tool's calls");
        return {};
    default:
        return {};
    }
}

QVariant ToolStatsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    static const char* const names[] = { QT_TR_NOOP("Tool"), QT_TR_NOOP("Calls"), QT_TR_NOOP("Served"),
        QT_TR_NOOP("Failed"), QT_TR_NOOP("Refused"), QT_TR_NOOP("Blocked"), QT_TR_NOOP("Unserved"),
        QT_TR_NOOP("Cancelled"), QT_TR_NOOP("p50"), QT_TR_NOOP("p95"), QT_TR_NOOP("Max"), QT_TR_NOOP("Total") };
    if (role == Qt::DisplayRole && section >= 0 && section < NUM_COLUMNS)
        return tr(names[section]);
    if (role == Qt::ToolTipRole && section >= P50Column)
        return tr("Durations over the calls that have one (p50 and p95 by nearest rank)");
    if (role == Qt::ToolTipRole && section == CallsColumn)
        return tr("Counted in calls: a call's start, end and results are one");
    return {};
}
