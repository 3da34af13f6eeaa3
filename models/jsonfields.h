#pragma once

#include "fieldtable.h"
#include "jsonline.h"

#include <algorithm>
#include <initializer_list>

// A record's fields into a JSON Lines report's object, by its field table (FieldTable::readJson reads them back):
// text null when empty (or, for NullIsNone, when there is none), a ZeroIsNull number null when 0.
namespace JsonFields {

// `except`: the keys left to the caller (the CLI's --json says some fields its own way).
template <class Record>
void write(JsonLine& o, const Record& r, const Fields<Record>& fields, std::initializer_list<const char*> except = {})
{
    for (const Field<Record>& f : fields) {
        if (!f.json || std::any_of(except.begin(), except.end(), [&](const char* key) { return qstrcmp(key, f.json) == 0; }))
            continue;
        std::visit(
            [&](auto member) {
                using T = std::remove_cvref_t<decltype(r.*member)>;
                const T& v = r.*member;
                if constexpr (std::is_same_v<T, QString>) {
                    if (f.rules & FieldRule::NullIsNone) {
                        if (v.isNull())
                            o.addNull(f.json);
                        else
                            o.add(f.json, v);
                    } else if (f.rules & FieldRule::Always) {
                        o.add(f.json, v);
                    } else {
                        o.addOrNull(f.json, v);
                    }
                } else if constexpr (std::is_same_v<T, qint64> || std::is_same_v<T, int>) {
                    if ((f.rules & FieldRule::ZeroIsNull) && v == 0)
                        o.addNull(f.json);
                    else
                        o.add(f.json, qint64(v));
                } else if constexpr (std::is_same_v<T, std::optional<qint64>>) {
                    if (v)
                        o.add(f.json, *v);
                    else
                        o.addNull(f.json);
                } else if constexpr (std::is_same_v<T, bool>) {
                    o.add(f.json, v);
                } else if constexpr (std::is_same_v<T, std::optional<bool>>) {
                    if (v)
                        o.add(f.json, *v);
                    else
                        o.addNull(f.json);
                } else if constexpr (std::is_same_v<T, EventKind>) {
                    o.add(f.json, EventKinds::name(v));
                } else if constexpr (std::is_same_v<T, Outcome>) {
                    o.addOrNull(f.json, Outcomes::name(v));
                } else {
                    o.add(f.json, Pairings::name(v));
                }
            },
            f.member);
    }
}

} // namespace JsonFields
