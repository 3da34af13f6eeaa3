#pragma once

#include "eventkind.h"
#include "outcome.h"
#include "pairing.h"
#include "sqlitestatement.h"
#include "textpacker.h"

#include <functional>
#include <optional>
#include <stdexcept>
#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <variant>
#include <vector>

// How a field is kept where it is not kept as its type alone says (FieldTable's rules).
namespace FieldRule {
enum : int {
    Key = 1, // the workspace's own row id: read, never written (the table's INTEGER PRIMARY KEY)
    Always = 2, // text bound and written as it is, "" included (a NOT NULL column); otherwise empty text is NULL
    ZeroIsNull = 4, // 0 is NULL in the workspace and null in JSON (a time or a line the source did not give)
    Packed = 8, // big text, kept packed (TextPacker): read through unpack()
    NullIsNone = 16, // text whose "" differs from none: NULL only for a null QString (a call's arguments, result)
    Numbered = 32, // text kept once per room elsewhere (a message or group id): the column holds the room's number,
                   // which bind() asks its `number` for; the field's `select` reads the text back
    Coded = 64, // a word kept once per workspace (WordCodes: a type, a role, a tool's name): the column holds its code, which bind()
                // asks its `number` for, "" included when Always; the field's `select` reads the name back
};
}

// One field of a record: its member, its column in the workspace and its key in the JSON Lines report. A record's
// fields are one table (RecordFields): its SELECT list, its INSERT and UPDATE, the reads and binds of them and its
// JSON Lines object are made from that table, so a field added to the record and to the table is in all of them,
// and one missed is in none (tst_recordfields checks each table against its record's members).
template <class Record>
struct Field
{
    using Member = std::variant<QString Record::*, qint64 Record::*, int Record::*, std::optional<qint64> Record::*,
        bool Record::*, std::optional<bool> Record::*, EventKind Record::*, Outcome Record::*, Pairing Record::*>;

    const char* name; // the member, as declared
    Member member;
    const char* column; // in the workspace's table; nullptr for a value the SELECT derives (`select`)
    const char* json; // the key in the JSON Lines report; nullptr: not written there
    int rules = 0; // FieldRule bits
    const char* select = nullptr; // what the SELECT reads, when it is not the column itself

    bool stored() const { return column && !(rules & FieldRule::Key); } // written by an INSERT or UPDATE
};

template <class Record>
using Fields = std::vector<Field<Record>>;

// The generic work on a table of fields.
namespace FieldTable {

// The SELECT list, in the table's order (read() reads it from a column on).
template <class Record>
QString selectList(const Fields<Record>& fields)
{
    QStringList out;
    for (const Field<Record>& f : fields) {
        if (f.select)
            out << QLatin1String(f.select);
        else if (f.rules & FieldRule::Packed)
            out << QStringLiteral("unpack(%1)").arg(QLatin1String(f.column));
        else
            out << QLatin1String(f.column);
    }
    return out.join(QStringLiteral(", "));
}

template <class Record>
int columnCount(const Fields<Record>& fields)
{
    return int(fields.size());
}

// The stored columns, in order: an INSERT's column list (bind() binds them in this order).
template <class Record>
QStringList storedColumns(const Fields<Record>& fields)
{
    QStringList out;
    for (const Field<Record>& f : fields) {
        if (f.stored())
            out << QLatin1String(f.column);
    }
    return out;
}

// "column = ?N, ..." over the stored columns from parameter `first` on; `instead` gives a column another expression,
// in which %1 is its parameter.
template <class Record>
QString assignments(const Fields<Record>& fields, int first, const QHash<QString, QString>& instead = {})
{
    QStringList out;
    int at = first;
    for (const QString& column : storedColumns(fields)) {
        const QString parameter = QStringLiteral("?") + QString::number(at++);
        const auto other = instead.constFind(column);
        out << column + QStringLiteral(" = ") + (other == instead.cend() ? parameter : other->arg(parameter));
    }
    return out.join(QStringLiteral(", "));
}

// The stored columns as an INSERT ... SELECT copies a row of the same table: each column itself, or what `instead`
// puts in its place.
template <class Record>
QString copyList(const Fields<Record>& fields, const QHash<QString, QString>& instead)
{
    QStringList out;
    for (const QString& column : storedColumns(fields))
        out << instead.value(column, column);
    return out.join(QStringLiteral(", "));
}

// The record from a statement that selected selectList() from column `first` on.
template <class Record>
void read(const SqliteStatement& q, int first, Record& r, const Fields<Record>& fields)
{
    int c = first;
    for (const Field<Record>& f : fields) {
        std::visit(
            [&](auto member) {
                using T = std::remove_reference_t<decltype(r.*member)>;
                T& v = r.*member;
                if constexpr (std::is_same_v<T, QString>)
                    v = q.text(c);
                else if constexpr (std::is_same_v<T, qint64>)
                    v = q.int64(c);
                else if constexpr (std::is_same_v<T, int>)
                    v = int(q.int64(c));
                else if constexpr (std::is_same_v<T, std::optional<qint64>>)
                    v = q.isNull(c) ? std::nullopt : std::optional<qint64>(q.int64(c));
                else if constexpr (std::is_same_v<T, bool>)
                    v = !q.isNull(c) && q.int64(c) != 0;
                else if constexpr (std::is_same_v<T, std::optional<bool>>)
                    v = q.isNull(c) ? std::nullopt : std::optional<bool>(q.int64(c) != 0);
                else if constexpr (std::is_same_v<T, EventKind>)
                    v = EventKinds::fromCode(q.int64(c)); // schema step 26
                else if constexpr (std::is_same_v<T, Outcome>)
                    v = Outcomes::fromName(q.text(c));
                else
                    v = Pairings::fromName(q.text(c)).value_or(Pairing::StartOnly);
            },
            f.member);
        ++c;
    }
}

// Binds the stored fields from parameter `first` on, in storedColumns()' order; returns the next parameter. A
// Numbered or Coded field is bound as the number `number` gives for its column and text.
template <class Record>
int bind(SqlBinder& st, int first, const Record& r, const Fields<Record>& fields, TextPacker& packer,
    const std::function<qint64(const char* column, const QString& text)>& number = {})
{
    int p = first;
    for (const Field<Record>& f : fields) {
        if (!f.stored())
            continue;
        std::visit(
            [&](auto member) {
                using T = std::remove_cvref_t<decltype(r.*member)>;
                const T& v = r.*member;
                if constexpr (std::is_same_v<T, QString>) {
                    const bool coded = f.rules & FieldRule::Coded;
                    if (((f.rules & FieldRule::Numbered) || coded) && (!v.isEmpty() || (coded && (f.rules & FieldRule::Always)))) {
                        if (!number)
                            throw std::logic_error("a numbered or coded field bound without its numbers");
                        st.bind(p, number(f.column, v));
                    } else if (f.rules & FieldRule::Packed) {
                        if (f.rules & FieldRule::NullIsNone)
                            packer.bind(st, p, v);
                        else
                            packer.bindOrNull(st, p, v);
                    } else if ((f.rules & FieldRule::Always) || !v.isEmpty()) {
                        st.bind(p, v);
                    } else {
                        st.bindNull(p);
                    }
                } else if constexpr (std::is_same_v<T, qint64> || std::is_same_v<T, int>) {
                    if ((f.rules & FieldRule::ZeroIsNull) && v == 0)
                        st.bindNull(p);
                    else
                        st.bind(p, qint64(v));
                } else if constexpr (std::is_same_v<T, std::optional<qint64>>) {
                    st.bind(p, v);
                } else if constexpr (std::is_same_v<T, bool>) {
                    st.bind(p, qint64(v ? 1 : 0));
                } else if constexpr (std::is_same_v<T, std::optional<bool>>) {
                    st.bind(p, v ? std::optional<qint64>(*v ? 1 : 0) : std::nullopt);
                } else if constexpr (std::is_same_v<T, EventKind>) {
                    st.bind(p, EventKinds::code(v));
                } else if constexpr (std::is_same_v<T, Outcome>) {
                    const QString name = Outcomes::name(v);
                    if (name.isEmpty())
                        st.bindNull(p);
                    else
                        st.bind(p, name);
                } else {
                    st.bind(p, Pairings::name(v));
                }
            },
            f.member);
        ++p;
    }
    return p;
}

// Whether two records hold the same in every field but the row's own key.
template <class Record>
bool same(const Record& a, const Record& b, const Fields<Record>& fields)
{
    for (const Field<Record>& f : fields) {
        if (f.rules & FieldRule::Key)
            continue;
        const bool equal = std::visit([&](auto member) { return a.*member == b.*member; }, f.member);
        if (!equal)
            return false;
    }
    return true;
}

// The record's fields from a JSON Lines report's object (what JsonFields::write wrote).
template <class Record>
void readJson(const QJsonObject& o, Record& r, const Fields<Record>& fields)
{
    for (const Field<Record>& f : fields) {
        if (!f.json)
            continue;
        const QJsonValue j = o.value(QLatin1String(f.json));
        std::visit(
            [&](auto member) {
                using T = std::remove_reference_t<decltype(r.*member)>;
                T& v = r.*member;
                if constexpr (std::is_same_v<T, QString>)
                    v = (f.rules & FieldRule::NullIsNone) && !j.isString() ? QString() : j.toString();
                else if constexpr (std::is_same_v<T, qint64> || std::is_same_v<T, int>)
                    v = j.isDouble() ? T(j.toInteger()) : T(0);
                else if constexpr (std::is_same_v<T, std::optional<qint64>>)
                    v = j.isDouble() ? std::optional<qint64>(j.toInteger()) : std::nullopt;
                else if constexpr (std::is_same_v<T, bool>)
                    v = j.toBool();
                else if constexpr (std::is_same_v<T, std::optional<bool>>)
                    v = j.isBool() ? std::optional<bool>(j.toBool()) : std::nullopt;
                else if constexpr (std::is_same_v<T, EventKind>)
                    v = EventKinds::fromName(j.toString());
                else if constexpr (std::is_same_v<T, Outcome>)
                    v = Outcomes::fromName(j.toString());
                else
                    v = Pairings::fromName(j.toString()).value_or(Pairing::StartOnly);
            },
            f.member);
    }
}

} // namespace FieldTable
