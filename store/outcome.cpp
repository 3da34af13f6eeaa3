#include "outcome.h"

#include "enumnames.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace {
// In the enum's order, None first.
const std::array<const char*, 7> Names { "", "served", "refused", "failed", "blocked", "unserved", "cancelled" };
} // namespace

namespace Outcomes {

QString name(Outcome outcome)
{
    return EnumNames::name(Names, outcome);
}

Outcome fromName(const QString& name)
{
    return EnumNames::value<Outcome>(Names, name, 1).value_or(Outcome::None); // "" is no name
}

bool isKnown(const QString& name)
{
    return fromName(name) != Outcome::None;
}

QVector<Outcome> all()
{
    return { Outcome::Served, Outcome::Failed, Outcome::Refused, Outcome::Blocked, Outcome::Unserved,
        Outcome::Cancelled };
}

QStringList names()
{
    QStringList out;
    for (Outcome o : all())
        out << name(o);
    return out;
}

QString errorOfResult(const QJsonValue& result)
{
    QJsonObject object;
    if (result.isObject()) {
        object = result.toObject();
    } else if (result.isString()) {
        const QString text = result.toString();
        // Only a string that is itself a JSON object can carry an error; skip the parse otherwise.
        if (!text.trimmed().startsWith(QLatin1Char('{')))
            return {};
        object = QJsonDocument::fromJson(text.toUtf8()).object();
    }
    const QJsonValue error = object.value(QLatin1String("error"));
    if (error.isUndefined() || error.isNull())
        return {};
    return error.isString() ? error.toString()
                            : QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

Outcome classifyError(const QString& error)
{
    // The texts RoomKit's gates and tool handler write (channels/_ai_tools.py, read for SOURCES.md §1.4).
    static const char* const refusals[] = {
        "denied by pre-execution hook",
        "not permitted by the agent's tool policy",
        "is gated by a skill",
        "exists but is not available to this agent",
    };
    for (const char* text : refusals) {
        if (error.contains(QLatin1String(text), Qt::CaseInsensitive))
            return Outcome::Refused;
    }
    if (error.startsWith(QLatin1String("Invalid arguments for"), Qt::CaseInsensitive))
        return Outcome::Refused;
    if (error.startsWith(QLatin1String("Unknown tool"), Qt::CaseInsensitive)
        || error.contains(QLatin1String("it is not declared"), Qt::CaseInsensitive))
        return Outcome::Unserved;
    return Outcome::Failed;
}

Outcome forRoomKitEnd(
    const QString& rowStatus, const QString& contentStatus, const QString& storedOutcome, const QJsonValue& result)
{
    if (const Outcome stored = fromName(storedOutcome); stored != Outcome::None)
        return stored;
    if (rowStatus == QLatin1String("blocked"))
        return Outcome::Blocked;
    if (contentStatus == QLatin1String("failed"))
        return Outcome::Failed;
    const QString error = errorOfResult(result);
    if (!error.isEmpty())
        return classifyError(error);
    return Outcome::Served;
}

} // namespace Outcomes
