#include "craftbotaction.h"

#include "../jsontext.h"
#include "pyliteral.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <functional>
#include <simdjson.h>
#include <string_view>
#include <utility>

namespace {

// An action's input or output as Qt reads it: JSON (parsed once: inside an array, so that any JSON value parses),
// or a Python literal as older CraftBot writes it. `json`: an object or an array.
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

// What an object value says of the stream and of its call, however it was read.
struct ObjectFacts
{
    QString sessionId, taskName, taskId, errorCode, status, message;
    bool hasError = false; // an "error" key
    bool failedByError = false; // its value is not null, false or ""
};

// The object's top-level strings read (empty when missing or not strings), one list for both parsers.
constexpr std::pair<std::string_view, QString ObjectFacts::*> StringKeys[] = { { "_session_id", &ObjectFacts::sessionId },
    { "task_name", &ObjectFacts::taskName }, { "task_id", &ObjectFacts::taskId }, { "error_code", &ObjectFacts::errorCode },
    { "status", &ObjectFacts::status }, { "message", &ObjectFacts::message } };

void settle(CraftBotAction& a, const ObjectFacts& o, const std::function<QJsonValue()>& errorValue)
{
    a.sessionId = o.sessionId;
    a.taskName = o.taskName;
    a.taskId = o.taskId;
    if (o.errorCode == QLatin1String("cancelled"))
        a.outcome = Outcome::Cancelled;
    else if (o.status == QLatin1String("error") || o.status == QLatin1String("failed") || o.failedByError)
        a.outcome = Outcome::Failed;
    if (a.outcome != Outcome::Served)
        a.error = o.hasError ? JsonText::compact(errorValue()) : o.message;
}

void readQtObject(CraftBotAction& a, const QJsonObject& object)
{
    ObjectFacts o;
    for (const auto& [key, member] : StringKeys)
        o.*member = object.value(QLatin1String(key.data(), qsizetype(key.size()))).toString();
    const QJsonValue error = object.value(QLatin1String("error"));
    o.hasError = object.contains(QLatin1String("error"));
    o.failedByError = !error.isUndefined() && !error.isNull() && error != QJsonValue(false) && error != QJsonValue(QString());
    settle(a, o, [&] { return error; });
}

// A JSON object or array by simdjson, which checks it and reads the object's few strings at several hundred MB/s.
// False when it is neither (a scalar, a Python literal, anything simdjson refuses): Qt's parser reads those.
bool readWithSimdjson(CraftBotAction& a)
{
    const QByteArray utf8 = a.valueText.toUtf8();
    thread_local simdjson::dom::parser parser; // its buffers reused, one per thread
    simdjson::dom::element doc;
    if (parser.parse(utf8.constData(), size_t(utf8.size())).get(doc) != simdjson::SUCCESS)
        return false;
    if (!doc.is_object() && !doc.is_array())
        return false;
    a.valid = true;
    a.json = true;
    simdjson::dom::object object;
    if (doc.get_object().get(object) != simdjson::SUCCESS)
        return true; // an array
    ObjectFacts o;
    const auto text = [](simdjson::dom::element value) {
        std::string_view s;
        return value.get_string().get(s) == simdjson::SUCCESS ? QString::fromUtf8(s.data(), qsizetype(s.size())) : QString();
    };
    // Every key in order: a key written twice reads as its last value, as Qt's parser keeps it.
    for (const simdjson::dom::key_value_pair field : object) {
        const std::string_view key = field.key;
        for (const auto& [name, member] : StringKeys) {
            if (key == name)
                o.*member = text(field.value);
        }
        if (key == "error") {
            const simdjson::dom::element e = field.value;
            bool b = true;
            std::string_view s;
            o.hasError = true;
            o.failedByError = !e.is_null() && !(e.get_bool().get(b) == simdjson::SUCCESS && !b)
                && !(e.get_string().get(s) == simdjson::SUCCESS && s.empty());
        }
    }
    // The error's text as compact JSON, Qt's way: read again only for a call that did not serve.
    settle(a, o, [&] { return QJsonDocument::fromJson(utf8).object().value(QLatin1String("error")); });
    return true;
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
    if (readWithSimdjson(a))
        return a;
    a.value = parseValue(a.valueText, &a.json);
    a.valid = a.value.has_value();
    if (a.value && a.value->isObject())
        readQtObject(a, a.value->toObject());
    return a;
}
