#pragma once

#include <optional>
#include <QString>
#include <QVector>

// The string values of a JSON text where they are in it, so that a span of one can be replaced in place: the
// rest of the text (its spacing, its key order, its escapes) stays byte for byte what the source wrote, and
// the result is still valid JSON. What a redaction needs (a source's payload is verbatim, and re-serialising
// it through QJsonDocument would sort its keys and change its numbers).
namespace JsonStrings {

struct Token
{
    QString path; // JSONPath as the details pane writes it: $.content.body, $.items[0]["a key"]
    qsizetype begin = 0; // where the raw content starts in the text (after the opening quote)
    qsizetype end = 0; // where it ends (at the closing quote)
    QString value; // decoded
    // Where each decoded character's escape or character starts in the text; one more entry: `end`.
    QVector<qsizetype> at;
};

// Every string value (not the keys) of `json`, in text order. nullopt when the text is not valid JSON.
std::optional<QVector<Token>> values(const QString& json);
// The string value at `path`, if there is one.
std::optional<Token> valueAt(const QString& json, const QString& path);
// The string value a span of the raw text [from, to) lies in, and the span in its decoded value.
struct Selection
{
    Token token;
    qsizetype start = 0;
    qsizetype length = 0;
};
std::optional<Selection> selectionAt(const QString& json, qsizetype from, qsizetype to);
// `json` with the decoded span [start, start + length) of `token` replaced by `with` (escaped as JSON needs).
QString replaced(const QString& json, const Token& token, qsizetype start, qsizetype length, const QString& with);
// A text that is not JSON (a CraftBot record) as one string, at the empty path: its spans are cut as they are.
Token plain(const QString& text);
// The string at `path`, or the whole text (plain()) when `path` is empty.
std::optional<Token> stringAt(const QString& text, const QString& path);
// `text` with the span of `token` replaced: escaped as JSON needs for a JSON string, as it is for plain text.
QString cut(const QString& text, const Token& token, qsizetype start, qsizetype length, const QString& with);
// The span [start, start + length) of `text` clamped to it and grown so that it never holds half a surrogate
// pair (an emoji): what every cut of a string takes.
void wholeCharacters(const QString& text, qsizetype& start, qsizetype& length);
// `text` as the inside of a JSON string.
QString escaped(const QString& text);

} // namespace JsonStrings
