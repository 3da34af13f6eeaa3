#include "craftbotaction.h"

#include "../jsontext.h"
#include "pyliteral.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace {

// An action's input or output: JSON as newer CraftBot writes it (parsed once: inside an array, so that any JSON value
// parses), or a Python literal as older CraftBot does. `json`: an object or an array, shown as written.
std::optional<QJsonValue> parseValue(const QString& text, bool* json)
{
    *json = false;
    if (!text.trimmed().isEmpty()) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + text.toUtf8() + QByteArray("]"), &error);
        if (error.error == QJsonParseError::NoError && doc.array().size() == 1) {
            const QJsonValue value = doc.array().first();
            *json = value.isObject() || value.isArray();
            return value;
        }
    }
    return PyLiteral::toJson(text);
}

} // namespace

CraftBotAction CraftBotAction::parse(const QString& kind, const QString& message)
{
    static const QRegularExpression start(
        QStringLiteral("^Running action (\\S+) with input: (.*)$"), QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression end(
        QStringLiteral("^Action (\\S+) completed with output: (.*)$"), QRegularExpression::DotMatchesEverythingOption);
    CraftBotAction a;
    if (kind == QLatin1String("action_start") || kind == QLatin1String("GUI action start"))
        a.part = Part::Start;
    else if (kind == QLatin1String("action_end") || kind == QLatin1String("GUI action end"))
        a.part = Part::End;
    else
        return a;
    a.gui = kind.startsWith(QLatin1String("GUI action"));
    const QRegularExpressionMatch m = (a.part == Part::Start ? start : end).match(message);
    if (!m.hasMatch()) {
        a.part = Part::None;
        return a;
    }
    a.name = m.captured(1);
    a.valueText = m.captured(2).trimmed();
    if (a.valueText.endsWith(QLatin1Char('.')))
        a.valueText.chop(1);
    a.value = parseValue(a.valueText, &a.json);
    return a;
}

Outcome CraftBotAction::outcome() const
{
    const QJsonObject o = value ? value->toObject() : QJsonObject();
    if (o.value(QLatin1String("error_code")).toString() == QLatin1String("cancelled"))
        return Outcome::Cancelled;
    const QString status = o.value(QLatin1String("status")).toString();
    if (status == QLatin1String("error") || status == QLatin1String("failed"))
        return Outcome::Failed;
    const QJsonValue error = o.value(QLatin1String("error"));
    if (!error.isUndefined() && !error.isNull() && error != QJsonValue(false) && error != QJsonValue(QString()))
        return Outcome::Failed;
    return Outcome::Served;
}

QString CraftBotAction::error() const
{
    const QJsonObject o = value ? value->toObject() : QJsonObject();
    return o.contains(QLatin1String("error")) ? JsonText::compact(o.value(QLatin1String("error")))
                                              : o.value(QLatin1String("message")).toString();
}
