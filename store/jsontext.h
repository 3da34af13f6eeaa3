#pragma once

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
// UTF-8 to text; bytes that are not UTF-8 become U+FFFD and `invalid` is set.
QString decodeUtf8(const QByteArray& bytes, bool* invalid);
} // namespace JsonText
