#include "jsontext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringDecoder>

namespace JsonText {

QString compact(const QJsonValue& value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    if (value.isString())
        return value.toString();
    if (value.isUndefined() || value.isNull())
        return {};
    // A bare number or literal: written inside an array, then unwrapped.
    return QString::fromUtf8(QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

QString clip(const QString& text, qsizetype limit)
{
    return text.size() > limit ? text.left(limit - 1) + QChar(0x2026) : text;
}

bool parsesAsJson(const QString& text)
{
    if (text.trimmed().isEmpty())
        return false;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + text.toUtf8() + QByteArray("]"), &error);
    return error.error == QJsonParseError::NoError && doc.array().size() == 1;
}

QString decodeUtf8(const QByteArray& bytes, bool* invalid)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString text = decoder(bytes);
    if (invalid)
        *invalid = decoder.hasError();
    return text;
}

} // namespace JsonText
