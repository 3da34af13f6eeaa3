#include "facetmodel.h"

#include <algorithm>
#include <functional>
#include <QFont>
#include <QGuiApplication>
#include <QHash>
#include <QLocale>
#include <QPalette>

struct FacetModel::Node
{
    QString field; // empty for a section
    QString value; // a section's title
    QString group; // a channel's type
    QStringList fields; // a section's fields
    qint64 count = 0;
    bool inRoom = true; // false: a value the filter names that the room shown has none of
    Node* parent = nullptr;
    std::vector<std::unique_ptr<Node>> children;

    int row(const std::vector<std::unique_ptr<Node>>& siblings) const
    {
        for (size_t i = 0; i < siblings.size(); ++i)
            if (siblings[i].get() == this)
                return int(i);
        return -1;
    }
};

namespace {

const EventFilterList* listOf(const QString& field)
{
    for (const EventFilterList& list : eventFilterLists())
        if (field == QLatin1String(list.name))
            return &list;
    return nullptr;
}

QStringList& anyOf(EventFilter& f, const QString& field)
{
    return f.*(listOf(field)->any);
}

QStringList& noneOf(EventFilter& f, const QString& field)
{
    return f.*(listOf(field)->none);
}

const QStringList& anyOf(const EventFilter& f, const QString& field)
{
    return f.*(listOf(field)->any);
}

const QStringList& noneOf(const EventFilter& f, const QString& field)
{
    return f.*(listOf(field)->none);
}

} // namespace

FacetModel::FacetModel(QObject* parent)
    : QAbstractItemModel(parent)
{
    const std::pair<QString, QStringList> sections[] = {
        { tr("Types"), { QStringLiteral("kind"), QStringLiteral("type") } },
        { tr("Channels"), { QStringLiteral("channel") } },
        { tr("Channel types"), { QStringLiteral("channel_type") } },
        { tr("Tools"), { QStringLiteral("tool") } },
        { tr("Outcomes"), { QStringLiteral("outcome") } },
        { tr("Participants"), { QStringLiteral("participant") } },
        // What reviewers added: labels, and the states is: finds (marked, noted, labelled, redacted, edited).
        { tr("Labels"), { QStringLiteral("label") } },
        { tr("Review"), { QStringLiteral("is") } },
    };
    for (const auto& [title, fields] : sections) {
        auto section = std::make_unique<Node>();
        section->value = title;
        section->fields = fields;
        m_sections.push_back(std::move(section));
    }
}

FacetModel::~FacetModel() = default;

void FacetModel::clear()
{
    beginResetModel();
    for (auto& section : m_sections)
        section->children.clear();
    m_counts = FacetCounts();
    endResetModel();
}

FacetModel::Node* FacetModel::node(const QModelIndex& index) const
{
    return static_cast<Node*>(index.internalPointer());
}

QModelIndex FacetModel::indexOf(const Node* n, int column) const
{
    if (!n)
        return {};
    const auto& siblings = n->parent ? n->parent->children : m_sections;
    return createIndex(n->row(siblings), column, const_cast<Node*>(n));
}

FacetModel::Node* FacetModel::findOrInsert(Node* parent, const QString& field, const QString& value)
{
    auto& children = parent->children;
    // Name order, case aside: rows keep their place as counts change.
    const auto at = std::lower_bound(children.begin(), children.end(), value,
        [](const std::unique_ptr<Node>& n, const QString& v) { return n->value.compare(v, Qt::CaseInsensitive) < 0; });
    for (auto it = at; it != children.end() && (*it)->value.compare(value, Qt::CaseInsensitive) == 0; ++it) {
        if ((*it)->value == value && (*it)->field == field)
            return it->get();
    }
    const int row = int(at - children.begin());
    beginInsertRows(indexOf(parent), row, row);
    auto n = std::make_unique<Node>();
    n->field = field;
    n->value = value;
    n->parent = parent;
    Node* raw = n.get();
    children.insert(children.begin() + row, std::move(n));
    endInsertRows();
    return raw;
}

void FacetModel::addMissing(Node* section, const QString& field, const QStringList& values)
{
    for (const QString& value : values) {
        if (!valueIndex(field, value).isValid())
            findOrInsert(section, field, value);
    }
}

void FacetModel::setCounts(const FacetCounts& counts)
{
    m_counts = counts;
    Node* types = m_sections[0].get();
    // Kinds first, so that each type finds the kind it sits under.
    for (const FacetValue& v : counts.fields.value(QStringLiteral("kind")))
        findOrInsert(types, QStringLiteral("kind"), v.value);
    for (const FacetValue& v : counts.fields.value(QStringLiteral("type"))) {
        // Under its kind, made first when the kinds' counts left it out: a type listed at the section's level
        // stayed there, a second time, once its kind came.
        Node* kind = v.group.isEmpty() ? types : findOrInsert(types, QStringLiteral("kind"), v.group);
        findOrInsert(kind, QStringLiteral("type"), v.value);
    }
    for (size_t s = 1; s < m_sections.size(); ++s) {
        Node* section = m_sections[s].get();
        const QString& field = section->fields.first();
        for (const FacetValue& v : counts.fields.value(field))
            findOrInsert(section, field, v.value)->group = v.group;
    }
    // Then every count, 0 for a value the other filters now leave out: looked up by field and value once, not
    // by a walk of the field's list per row (a thousand participants on the GUI thread).
    QHash<QString, QHash<QString, qint64>> byField;
    for (auto it = counts.fields.cbegin(); it != counts.fields.cend(); ++it) {
        QHash<QString, qint64>& values = byField[it.key()];
        for (const FacetValue& v : it.value())
            values.insert(v.value, v.count);
    }
    // A value the filter names is listed even when this room has none of it (a filter carried over from
    // another room or a restart), so that it can be seen and unticked.
    addFilterValues();
    forEachNode([&](Node* n) {
        const auto field = byField.constFind(n->field);
        n->inRoom = field != byField.constEnd() && field->contains(n->value);
        n->count = n->inRoom ? field->value(n->value) : 0;
    });
    for (auto& section : m_sections)
        dropGone(section.get());
}

void FacetModel::dropGone(Node* parent)
{
    // The counts list every value the room holds under any filter: one they no longer list left the room (a call
    // turned from unserved to served, a half line made whole at a sync) and leaves the panes, where it stayed
    // greyed at 0. Unless the filter names it, or the field has more values than were listed.
    for (int row = int(parent->children.size()) - 1; row >= 0; --row) {
        Node* n = parent->children[size_t(row)].get();
        dropGone(n);
        if (n->inRoom || !n->children.empty() || m_counts.more.value(n->field) > 0
            || anyOf(m_filter, n->field).contains(n->value) || noneOf(m_filter, n->field).contains(n->value))
            continue;
        beginRemoveRows(indexOf(parent), row, row);
        parent->children.erase(parent->children.begin() + row);
        endRemoveRows();
    }
}

void FacetModel::addFilterValues()
{
    for (auto& section : m_sections) {
        for (const QString& field : section->fields) {
            addMissing(section.get(), field, anyOf(m_filter, field));
            addMissing(section.get(), field, noneOf(m_filter, field));
        }
    }
}

void FacetModel::setFilter(const EventFilter& filter)
{
    m_filter = filter;
    // A value the filter names shows even when the room has none of it.
    addFilterValues();
    forEachNode([](Node*) {}); // the ticks and strike-outs follow the filter
}

void FacetModel::forEachNode(const std::function<void(Node*)>& change)
{
    std::function<void(Node*)> walk = [&](Node* parent) {
        for (auto& child : parent->children) {
            change(child.get());
            walk(child.get());
        }
        if (!parent->children.empty())
            emit dataChanged(
                indexOf(parent->children.front().get(), 0), indexOf(parent->children.back().get(), CountColumn));
    };
    for (auto& section : m_sections)
        walk(section.get());
}

QModelIndex FacetModel::sectionIndex(const QString& field) const
{
    for (const auto& section : m_sections)
        if (section->fields.contains(field))
            return indexOf(section.get());
    return {};
}

QModelIndex FacetModel::valueIndex(const QString& field, const QString& value) const
{
    std::function<const Node*(const Node*)> find = [&](const Node* parent) -> const Node* {
        for (const auto& child : parent->children) {
            if (child->field == field && child->value == value)
                return child.get();
            if (const Node* found = find(child.get()))
                return found;
        }
        return nullptr;
    };
    for (const auto& section : m_sections) {
        if (section->fields.contains(field))
            return indexOf(find(section.get()));
    }
    return {};
}

bool FacetModel::isExcluded(const Node* n) const
{
    return !n->field.isEmpty() && noneOf(m_filter, n->field).contains(n->value);
}

bool FacetModel::isTicked(const Node* n) const
{
    if (n->field.isEmpty())
        return false;
    if (anyOf(m_filter, n->field).contains(n->value))
        return true;
    // A type is ticked through its kind.
    return n->field == QLatin1String("type") && n->parent && n->parent->field == QLatin1String("kind")
        && m_filter.kinds.contains(n->parent->value);
}

namespace {

// The types the model knows for each kind ticked, in place of the kinds: a tick on a type beside a ticked
// kind would otherwise ask for both at once (kind:x type:y matches a row that is both).
QStringList typesOfKinds(const QStringList& kinds, const std::function<QStringList(const QString&)>& typesOf)
{
    QStringList types;
    for (const QString& kind : kinds)
        types += typesOf(kind);
    return types;
}

void addUnique(QStringList& list, const QStringList& values)
{
    for (const QString& v : values)
        if (!list.contains(v))
            list << v;
}

} // namespace

EventFilter FacetModel::toggled(const QModelIndex& index) const
{
    const Node* n = node(index);
    EventFilter f = m_filter;
    if (!n || n->field.isEmpty())
        return f;
    auto typesOf = [this](const QString& kind) {
        QStringList types;
        const QModelIndex k = valueIndex(QStringLiteral("kind"), kind);
        if (k.isValid())
            for (const auto& child : node(k)->children)
                types << child->value;
        return types;
    };
    if (isExcluded(n)) {
        noneOf(f, n->field).removeAll(n->value);
        return f;
    }
    if (n->field == QLatin1String("kind")) {
        const QStringList own = typesOf(n->value);
        const bool some = std::any_of(own.cbegin(), own.cend(), [&](const QString& t) { return f.types.contains(t); });
        if (f.kinds.contains(n->value) || some) {
            f.kinds.removeAll(n->value);
            for (const QString& t : own)
                f.types.removeAll(t);
        } else if (f.types.isEmpty()) {
            f.kinds << n->value;
        } else {
            addUnique(f.types, own); // other types are ticked: stay with types
        }
        return f;
    }
    if (n->field == QLatin1String("type") && !f.kinds.isEmpty()) {
        addUnique(f.types, typesOfKinds(f.kinds, typesOf));
        f.kinds.clear();
    }
    QStringList& any = anyOf(f, n->field);
    if (any.contains(n->value))
        any.removeAll(n->value);
    else
        any << n->value;
    return f;
}

EventFilter FacetModel::excluded(const QModelIndex& index) const
{
    const Node* n = node(index);
    EventFilter f = m_filter;
    if (!n || n->field.isEmpty())
        return f;
    anyOf(f, n->field).removeAll(n->value);
    addUnique(noneOf(f, n->field), { n->value });
    return f;
}

EventFilter FacetModel::only(const QModelIndex& index) const
{
    const Node* n = node(index);
    EventFilter f = m_filter;
    if (!n || n->field.isEmpty())
        return f;
    if (n->field == QLatin1String("type") || n->field == QLatin1String("kind")) {
        f.types.clear();
        f.kinds.clear();
    }
    anyOf(f, n->field) = QStringList { n->value };
    noneOf(f, n->field).removeAll(n->value);
    return f;
}

EventFilter FacetModel::cleared(const QModelIndex& index) const
{
    const Node* n = node(index);
    EventFilter f = m_filter;
    if (!n)
        return f;
    while (n->parent)
        n = n->parent;
    for (const QString& field : n->fields) {
        anyOf(f, field).clear();
        noneOf(f, field).clear();
    }
    return f;
}

QModelIndex FacetModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= NUM_COLUMNS)
        return {};
    const auto& children = parent.isValid() ? node(parent)->children : m_sections;
    if (parent.isValid() && parent.column() != 0)
        return {};
    if (row >= int(children.size()))
        return {};
    return createIndex(row, column, children[row].get());
}

QModelIndex FacetModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    return indexOf(node(child)->parent);
}

int FacetModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return int(m_sections.size());
    if (parent.column() != 0)
        return 0;
    return int(node(parent)->children.size());
}

int FacetModel::columnCount(const QModelIndex&) const
{
    return NUM_COLUMNS;
}

QVariant FacetModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const Node* n = node(index);
    const bool section = n->field.isEmpty();
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == CountColumn)
            return section ? QVariant() : QVariant(QLocale().toString(n->count));
        if (section && m_counts.more.contains(n->fields.first()))
            return tr("%1 (the %2 most frequent)").arg(n->value, QString::number(n->children.size()));
        return n->value;
    case Qt::ToolTipRole: {
        if (section) {
            // What the section's figures count: rows, which is not what the room list and Tool Statistics count.
            const QString field = n->fields.value(0);
            if (field == QLatin1String("tool"))
                return tr("Rows of each tool's calls under the other filters: a call is its start, its end and any result "
                          "(the room list and Tool Statistics count calls)");
            if (field == QLatin1String("outcome"))
                return tr("Rows of the calls that ended so (a call's outcome is on each of its rows: its start, its end "
                          "and any result), under the other filters; the room list's Problems and Tool Statistics count calls");
            if (field == QLatin1String("is"))
                return tr("Rows reviewers marked, noted, labelled, redacted or edited, under the other filters: a "
                          "redacted row a filter leaves out (a blocked one while blocked rows are hidden) is not counted, "
                          "though its card may show the redaction");
            return tr("Rows of the room under the other filters");
        }
        if (!n->inRoom && !m_counts.fields.isEmpty())
            return tr("%1: this room has none; the filter names it (untick to clear)").arg(n->value);
        if (isExcluded(n))
            return tr("Left out: -%1:%2").arg(n->field, n->value);
        const QString events = n->count == 1 ? tr("1 event") : tr("%1 events").arg(QLocale().toString(n->count));
        if (!n->group.isEmpty())
            return tr("%1 (%2): %3 under the other filters").arg(n->value, n->group, events);
        return tr("%1: %2 under the other filters").arg(n->value, events);
    }
    case Qt::CheckStateRole: {
        if (section || index.column() != ValueColumn)
            return {};
        if (isTicked(n))
            return Qt::Checked;
        if (n->field == QLatin1String("kind")
            && std::any_of(n->children.cbegin(), n->children.cend(),
                [&](const std::unique_ptr<Node>& c) { return m_filter.types.contains(c->value); }))
            return Qt::PartiallyChecked;
        return Qt::Unchecked;
    }
    case Qt::FontRole: {
        const bool absent = !section && !n->inRoom && !m_counts.fields.isEmpty();
        if (!section && !isExcluded(n) && !absent)
            return {};
        QFont font;
        font.setBold(section);
        font.setStrikeOut(!section && isExcluded(n));
        font.setItalic(absent); // named by the filter, not in this room
        return font;
    }
    case Qt::ForegroundRole:
        if (!section && (n->count == 0 || isExcluded(n)))
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == CountColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case FieldRole:
        return n->field;
    case ValueRole:
        return n->value;
    case CountRole:
        return n->count;
    case InRoomRole:
        return n->inRoom;
    case ExcludedRole:
        return isExcluded(n);
    default:
        return {};
    }
}

bool FacetModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || role != Qt::CheckStateRole || node(index)->field.isEmpty())
        return false;
    const bool ticked = value.value<Qt::CheckState>() == Qt::Checked;
    const bool now = data(index, Qt::CheckStateRole).value<Qt::CheckState>() != Qt::Unchecked;
    if (ticked == now && !isExcluded(node(index)))
        return false;
    // The tick shows when the filter comes back through setFilter(): the filter bar is where it is applied.
    emit filterEdited(toggled(index));
    return true;
}

Qt::ItemFlags FacetModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (!node(index)->field.isEmpty() && index.column() == ValueColumn)
        f |= Qt::ItemIsUserCheckable;
    return f;
}

QVariant FacetModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == CountColumn)
        return tr("Events: rows of the room under the rest of the filter (a tool call is two rows or more)");
    if (role != Qt::DisplayRole)
        return {};
    return section == ValueColumn ? tr("Value") : tr("Events");
}
