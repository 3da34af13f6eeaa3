#include "comparemodel.h"

#include "compare/runsummary.h"
#include "presentation.h"

#include <QGuiApplication>
#include <QJsonArray>
#include <QBrush>
#include <QColor>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QPalette>
#include <algorithm>

CompareModel::CompareModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void CompareModel::setComparison(RunStepList a, RunStepList b, StepPairs pairs)
{
    beginResetModel();
    m_a = std::move(a);
    m_b = std::move(b);
    m_pairs = std::move(pairs);
    m_totals = RunSummary::of(m_a, m_b, m_pairs);
    endResetModel();
}

const RunStep* CompareModel::stepA(int row) const
{
    if (row < 0 || row >= m_pairs.size() || !m_pairs.at(row).a)
        return nullptr;
    return &m_a.at(*m_pairs.at(row).a);
}

const RunStep* CompareModel::stepB(int row) const
{
    if (row < 0 || row >= m_pairs.size() || !m_pairs.at(row).b)
        return nullptr;
    return &m_b.at(*m_pairs.at(row).b);
}

int CompareModel::nextDifference(int from, bool forward) const
{
    for (int row = forward ? from + 1 : from - 1; row >= 0 && row < m_pairs.size(); row += forward ? 1 : -1) {
        if (m_pairs.at(row).change != StepPair::Change::Same)
            return row;
    }
    return -1;
}

QString CompareModel::summary() const
{
    const RunSummary& s = m_totals;
    QString text = tr("%1 same, %2 changed, %3 only in A, %4 only in B; calls took %5 in A, %6 in B")
                       .arg(s.count(StepPair::Change::Same))
                       .arg(s.count(StepPair::Change::Changed))
                       .arg(s.count(StepPair::Change::OnlyA))
                       .arg(s.count(StepPair::Change::OnlyB))
                       .arg(RunSummary::spoken(s.totalMsA), RunSummary::spoken(s.totalMsB));
    QStringList outcomes;
    for (const RunSummary::OutcomeChange& o : s.outcomes)
        outcomes << tr("%1 %2 → %3").arg(o.tool, o.a, o.b);
    if (!outcomes.isEmpty())
        text += tr("; outcomes: %1").arg(outcomes.join(QStringLiteral(", ")));
    return text;
}

QStringList CompareModel::perTool() const
{
    const auto ms = [](const std::optional<qint64>& v) { return v ? QString::number(*v) : QStringLiteral("–"); };
    QStringList out;
    for (auto it = m_totals.tools.cbegin(); it != m_totals.tools.cend(); ++it) {
        if (it->moved()) {
            const auto calls = [](int n, int snapshot) {
                return snapshot > 0 ? tr("%1 (%2 from a snapshot)").arg(n).arg(snapshot) : QString::number(n);
            };
            out << tr("%1 %2 → %3 calls, median %4 → %5 ms")
                       .arg(it.key(), calls(it->callsA, it->snapshotA), calls(it->callsB, it->snapshotB), ms(it->medianMsA),
                           ms(it->medianMsB));
        }
    }
    return out;
}

int CompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_pairs.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString CompareModel::described(const RunStep& s)
{
    // A step a snapshot brought (an AG-UI MESSAGES_SNAPSHOT, a run's input) says so: it can be in one run's snapshot
    // and not in the other's events.
    const QString snapshot = s.fromSnapshot ? tr("  (from a snapshot)") : QString();
    if (s.kind == RunStep::Kind::ToolCall) {
        return QStringLiteral("%1  %2%3").arg(s.index).arg(s.tool,
                   s.durationMs ? QStringLiteral("  %1 ms").arg(*s.durationMs) : QString())
            + snapshot;
    }
    QString text = s.preview.isEmpty() ? tr("(no text)") : s.preview;
    if (text.size() > 80)
        text = text.left(79) + QStringLiteral("…");
    return QStringLiteral("%1  %2: %3").arg(s.index).arg(s.role, text) + snapshot;
}

QVariant CompareModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_pairs.size())
        return {};
    const StepPair& p = m_pairs.at(index.row());
    if (role == ChangeRole)
        return int(p.change);
    if (role == FieldsRole)
        return p.fields;
    if (role == Qt::DisplayRole) {
        if (index.column() == AColumn)
            return stepA(index.row()) ? described(*stepA(index.row())) : QString();
        if (index.column() == BColumn)
            return stepB(index.row()) ? described(*stepB(index.row())) : QString();
        switch (p.change) {
        case StepPair::Change::Same:
            return QStringLiteral("=");
        case StepPair::Change::Changed:
            return QString(QStringLiteral("~ ") + p.fields.join(QStringLiteral(", ")));
        case StepPair::Change::OnlyA:
            return tr("only A");
        case StepPair::Change::OnlyB:
            return tr("only B");
        }
    }
    if (role == Qt::ToolTipRole && p.change == StepPair::Change::Changed)
        return tr("Differs in: %1").arg(p.fields.join(QStringLiteral(", ")));
    if (role == Qt::BackgroundRole && p.change != StepPair::Change::Same) {
        // Soft tints that read in light and dark themes alike: yellow changed, red only in A, green only in B.
        const bool dark = Presentation::isDark(QGuiApplication::palette());
        QColor c = p.change == StepPair::Change::Changed ? QColor(0xf5, 0xd7, 0x6e)
            : p.change == StepPair::Change::OnlyA        ? QColor(0xf2, 0x8b, 0x82)
                                                         : QColor(0x81, 0xc9, 0x95);
        c.setAlpha(dark ? 70 : 90);
        return QBrush(c);
    }
    return {};
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case AColumn:
        return tr("A");
    case ChangeColumn:
        return tr("Change");
    case BColumn:
        return tr("B");
    }
    return {};
}

namespace {

QString compact(const QJsonValue& v)
{
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    return QString::fromUtf8(QJsonDocument(QJsonArray { v }).toJson(QJsonDocument::Compact).mid(1).chopped(1));
}

// Two values at `path` ("order.items[2]"): into objects key by key and into arrays element by element, so that a
// change deep inside says where it is and what it was, not the whole value around it.
void diff(const QString& path, const QJsonValue& x, const QJsonValue& y, QStringList& out)
{
    if (x == y)
        return;
    const auto at = [&](const QString& key) { return path.isEmpty() ? key : path + QLatin1Char('.') + key; };
    if (x.isObject() && y.isObject()) {
        const QJsonObject ox = x.toObject(), oy = y.toObject();
        for (auto it = ox.begin(); it != ox.end(); ++it) {
            if (!oy.contains(it.key()))
                out << QStringLiteral("- %1: %2").arg(at(it.key()), compact(it.value()));
            else
                diff(at(it.key()), it.value(), oy.value(it.key()), out);
        }
        for (auto it = oy.begin(); it != oy.end(); ++it) {
            if (!ox.contains(it.key()))
                out << QStringLiteral("+ %1: %2").arg(at(it.key()), compact(it.value()));
        }
        return;
    }
    if (x.isArray() && y.isArray()) {
        const QJsonArray ax = x.toArray(), ay = y.toArray();
        const qsizetype common = std::min(ax.size(), ay.size());
        for (qsizetype i = 0; i < common; ++i)
            diff(QStringLiteral("%1[%2]").arg(path).arg(i), ax.at(i), ay.at(i), out);
        for (qsizetype i = common; i < ax.size(); ++i)
            out << QStringLiteral("- %1[%2]: %3").arg(path).arg(i).arg(compact(ax.at(i)));
        for (qsizetype i = common; i < ay.size(); ++i)
            out << QStringLiteral("+ %1[%2]: %3").arg(path).arg(i).arg(compact(ay.at(i)));
        return;
    }
    out << (path.isEmpty() ? QStringLiteral("~ %1 → %2").arg(compact(x), compact(y))
                           : QStringLiteral("~ %1: %2 → %3").arg(path, compact(x), compact(y)));
}

} // namespace

QStringList CompareModel::jsonDiff(const QString& a, const QString& b)
{
    if (a == b)
        return {};
    const QJsonDocument x = QJsonDocument::fromJson(a.toUtf8());
    const QJsonDocument y = QJsonDocument::fromJson(b.toUtf8());
    const auto value = [](const QJsonDocument& d) { return d.isObject() ? QJsonValue(d.object()) : QJsonValue(d.array()); };
    if (x.isNull() || y.isNull())
        return { QStringLiteral("~ %1 → %2").arg(a, b) }; // not JSON, one of them: as a whole
    QStringList out;
    diff({}, value(x), value(y), out);
    return out;
}
