#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

// What the AG-UI assembler's parts read of an event's JSON the same way.
namespace AguiJson {

inline QString str(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toString();
}

// The text of a message's content, a user's or a tool's: a string, or content parts (SOURCES.md §3.4), their text.
inline QString contentText(const QJsonValue& content)
{
    if (content.isString())
        return content.toString();
    QStringList parts;
    for (const QJsonValue& part : content.toArray()) {
        const QJsonObject o = part.toObject();
        if (o.value(QLatin1String("type")).toString() == QLatin1String("text"))
            parts << o.value(QLatin1String("text")).toString();
        else if (!o.isEmpty())
            parts << QStringLiteral("[%1]").arg(o.value(QLatin1String("type")).toString());
    }
    return parts.join(QLatin1Char('\n'));
}

} // namespace AguiJson
