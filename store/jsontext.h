#pragma once

#include <optional>

#include <QByteArray>
#include <QJsonValue>
#include <QString>

// Small text helpers every reader shares.
namespace JsonText {
// A JSON value on one line: objects and arrays compact, strings as they are, numbers and literals as JSON.
QString compact(const QJsonValue& value);
// Display text cut at `limit` characters with an ellipsis.
QString clip(const QString& text, qsizetype limit = 4000);
// JSON.parse's answer for any JSON value (an object, an array, a string, a number, true, false, null).
bool parsesAsJson(const QString& text);
// Where `text` stops being one JSON value, for people: "line 3, column 7: unterminated object"; nullopt when it is.
// `at`, when given, gets where in `text` (UTF-16 code units) it stops.
std::optional<QString> whereNotJson(const QString& text, qsizetype* at = nullptr);
// The one JSON value `text` holds (whereNotJson says it does).
QJsonValue parse(const QString& text);
// A stored value (compact(): a string kept as its text) as a JSON editor shows it: an object or array indented,
// a number or literal as it is, anything else as a JSON string when `stringIfNot`, else as it is (arguments that
// do not parse, to be mended).
QString editable(const QString& stored, bool stringIfNot);
// UTF-8 to text; bytes that are not UTF-8 become U+FFFD and `invalid` is set.
QString decodeUtf8(const QByteArray& bytes, bool* invalid);
} // namespace JsonText
