#include "jsontext.h"

#include <algorithm>

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

std::optional<QString> whereNotJson(const QString& text, qsizetype* at)
{
    if (at)
        *at = 0;
    if (text.trimmed().isEmpty())
        return QStringLiteral("empty: write a JSON value (an object, an array, a string in quotes, a number, true, "
                              "false or null)");
    // Inside an array, so that any JSON value parses (QJsonDocument takes only objects and arrays); the offset it
    // gives is then one byte on.
    const QByteArray utf8 = text.toUtf8();
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + utf8 + QByteArray("]"), &error);
    // Qt's words, said for people who write JSON by hand; its offset is just past where it stopped.
    QString problem;
    switch (error.error) {
    case QJsonParseError::MissingObject:
    case QJsonParseError::IllegalValue:
    case QJsonParseError::IllegalNumber:
        problem = QStringLiteral("a value is missing or wrong here (a text goes in \"quotes\")");
        break;
    case QJsonParseError::UnterminatedObject:
        problem = QStringLiteral("the object is not closed: a } or a , is missing");
        break;
    case QJsonParseError::UnterminatedArray:
        problem = QStringLiteral("the array is not closed: a ] or a , is missing");
        break;
    case QJsonParseError::MissingNameSeparator:
        problem = QStringLiteral("a : is missing after the name");
        break;
    case QJsonParseError::MissingValueSeparator:
        problem = QStringLiteral("a , is missing between two values");
        break;
    case QJsonParseError::UnterminatedString:
        problem = QStringLiteral("the string is not closed: a \" is missing");
        break;
    case QJsonParseError::GarbageAtEnd:
        problem = QStringLiteral("more text after the value");
        break;
    default:
        problem = error.errorString();
    }
    qsizetype offset = std::clamp<qsizetype>(error.offset - 2, 0, utf8.size());
    if (error.error == QJsonParseError::NoError) {
        if (doc.array().size() == 1)
            return std::nullopt;
        problem = QStringLiteral("more than one value (put them in [ ] or { })");
        offset = utf8.size();
    }
    const QByteArray before = utf8.left(offset);
    if (at)
        *at = QString::fromUtf8(before).size();
    const qsizetype lineStart = before.lastIndexOf('\n') + 1;
    return QStringLiteral("line %1, column %2: %3")
        .arg(before.count('\n') + 1)
        .arg(QString::fromUtf8(before.mid(lineStart)).size() + 1)
        .arg(problem);
}

QJsonValue parse(const QString& text)
{
    return QJsonDocument::fromJson(QByteArray("[") + text.toUtf8() + QByteArray("]")).array().at(0);
}

QString editable(const QString& stored, bool stringIfNot)
{
    if (parsesAsJson(stored)) {
        const QJsonValue v = parse(stored);
        if (v.isObject())
            return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Indented)).trimmed();
        if (v.isArray())
            return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Indented)).trimmed();
        if (!v.isString())
            return stored.trimmed();
    }
    if (!stringIfNot)
        return stored;
    return QString::fromUtf8(QJsonDocument(QJsonArray { stored }).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
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
