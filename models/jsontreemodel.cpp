#include "jsontreemodel.h"

#include "jsontext.h"
#include "reporttext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace {

// A string that holds a JSON object or array (a tool result written as a string, say): its parsed value.
std::optional<QJsonValue> embeddedJson(const QJsonValue& value)
{
    if (!value.isString())
        return std::nullopt;
    const QString text = value.toString().trimmed();
    if (!(text.startsWith(QLatin1Char('{')) || text.startsWith(QLatin1Char('['))))
        return std::nullopt;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    if (doc.isObject())
        return QJsonValue(doc.object());
    if (doc.isArray())
        return QJsonValue(doc.array());
    return std::nullopt;
}

QString typeName(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("boolean");
    case QJsonValue::Double:
        return QStringLiteral("number");
    case QJsonValue::String:
        return QStringLiteral("string");
    case QJsonValue::Array:
        return QStringLiteral("array");
    case QJsonValue::Object:
        return QStringLiteral("object");
    case QJsonValue::Undefined:
        break;
    }
    return {};
}

} // namespace

JsonTreeModel::JsonTreeModel(QObject* parent)
    : QAbstractItemModel(parent)
{
}

JsonTreeModel::~JsonTreeModel() = default;

bool JsonTreeModel::setJson(const QByteArray& json)
{
    beginResetModel();
    m_root.reset();
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    if (!doc.isNull()) {
        m_root = std::make_unique<Node>();
        m_root->value = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
        m_root->opened = m_root->value;
    }
    endResetModel();
    return m_root != nullptr;
}

void JsonTreeModel::clear()
{
    beginResetModel();
    m_root.reset();
    endResetModel();
}

const JsonTreeModel::Node* JsonTreeModel::nodeOf(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<const Node*>(index.internalPointer()) : m_root.get();
}

void JsonTreeModel::populate(const Node* node) const
{
    if (!node || node->populated)
        return;
    node->populated = true;
    const QJsonValue& value = node->opened;
    auto add = [node](const QString& key, const QJsonValue& v, bool item) {
        auto child = std::make_unique<Node>();
        child->key = key;
        child->item = item;
        child->value = v;
        const std::optional<QJsonValue> inner = embeddedJson(v);
        child->embedded = inner.has_value();
        child->opened = inner.value_or(v);
        child->parent = const_cast<Node*>(node);
        child->row = int(node->children.size());
        node->children.push_back(std::move(child));
    };
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        node->children.reserve(o.size());
        for (auto it = o.begin(); it != o.end(); ++it)
            add(it.key(), it.value(), false);
    } else if (value.isArray()) {
        const QJsonArray a = value.toArray();
        node->children.reserve(a.size());
        for (qsizetype i = 0; i < a.size(); ++i)
            add(QStringLiteral("[%1]").arg(i), a.at(i), true);
    }
}

QModelIndex JsonTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    const Node* p = nodeOf(parent);
    populate(p);
    return createIndex(row, column, p->children[size_t(row)].get());
}

QModelIndex JsonTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    const Node* p = nodeOf(child)->parent;
    if (!p || p == m_root.get())
        return {};
    return createIndex(p->row, 0, p);
}

int JsonTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.column() > 0)
        return 0;
    const Node* node = nodeOf(parent);
    if (!node)
        return 0;
    populate(node);
    return int(node->children.size());
}

int JsonTreeModel::columnCount(const QModelIndex&) const
{
    return NUM_COLUMNS;
}

bool JsonTreeModel::hasChildren(const QModelIndex& parent) const
{
    if (parent.column() > 0)
        return false;
    const Node* node = nodeOf(parent);
    if (!node)
        return false;
    if (node->populated)
        return !node->children.empty();
    // Without making the children: objects and arrays (and strings holding them) that are not empty.
    const QJsonValue& v = node->opened;
    return (v.isObject() && !v.toObject().isEmpty()) || (v.isArray() && !v.toArray().isEmpty());
}

QString JsonTreeModel::path(const Node* node)
{
    static const QRegularExpression identifier(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    QString out;
    for (; node && node->parent; node = node->parent) {
        if (node->item)
            out.prepend(node->key);
        else if (identifier.match(node->key).hasMatch())
            out.prepend(QLatin1Char('.') + node->key);
        else
            out.prepend(QStringLiteral("[\"") + QString(node->key).replace(QLatin1Char('"'), QStringLiteral("\\\""))
                + QStringLiteral("\"]"));
    }
    return QLatin1Char('$') + out;
}

void JsonTreeModel::made(const Node* node) const
{
    if (node->made)
        return;
    node->made = true;
    const QJsonValue& v = node->value;
    node->shownKey = ReportText::shown(node->key);
    if (v.isObject()) {
        const qsizetype n = v.toObject().size();
        node->shownValue = n == 1 ? tr("{1 member}") : tr("{%1 members}").arg(n);
    } else if (v.isArray()) {
        const qsizetype n = v.toArray().size();
        node->shownValue = n == 1 ? tr("[1 item]") : tr("[%1 items]").arg(n);
    }
    const QString full = v.isString() ? v.toString() : JsonText::compact(v);
    node->fullSize = full.size();
    if (v.isObject() || v.isArray())
        return;
    QString shown = ReportText::shown(full.left(DisplayLimit));
    shown.replace(QLatin1Char('\n'), QStringLiteral("⏎"));
    // One arg() with both: chained, a value holding "%2" had the count put into it.
    node->shownValue = full.size() > DisplayLimit
        ? tr("%1… (%2 more characters)").arg(shown, QString::number(full.size() - DisplayLimit))
        : shown;
}

QVariant JsonTreeModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node* node = nodeOf(index);
    const QJsonValue& v = node->value;
    switch (role) {
    case FullValueRole:
        return v.isString() ? v.toString() : JsonText::compact(v);
    case PathRole:
        return path(node);
    case JsonRole: // the value as JSON text, for copying or saving
        return v.isString()
            ? QString::fromUtf8(QJsonDocument(QJsonArray { v }).toJson(QJsonDocument::Compact)).mid(1).chopped(1)
            : (v.isObject() || v.isArray())
            ? QString::fromUtf8(v.isObject() ? QJsonDocument(v.toObject()).toJson(QJsonDocument::Indented)
                                             : QJsonDocument(v.toArray()).toJson(QJsonDocument::Indented))
            : JsonText::compact(v);
    case CutRole:
        made(node);
        return node->fullSize > DisplayLimit;
    case Qt::ToolTipRole:
        return path(node);
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    made(node);
    switch (index.column()) {
    case KeyColumn:
        return node->shownKey;
    case ValueColumn:
        return node->shownValue;
    case TypeColumn:
        return node->embedded ? tr("string (JSON)") : typeName(v);
    }
    return {};
}

QVariant JsonTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KeyColumn:
        return tr("Key");
    case ValueColumn:
        return tr("Value");
    case TypeColumn:
        return tr("Type");
    }
    return {};
}
