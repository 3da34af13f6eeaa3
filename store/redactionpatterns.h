#pragma once

#include <functional>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QVector>

// What bulk redaction looks for: a regular expression of the reviewer's own, or built-in patterns for e-mail
// addresses, phone numbers, payment card numbers (with the Luhn check) and secrets (API keys, bearer tokens).
namespace RedactionPatterns {

struct Pattern
{
    QString name; // email, phone, card, secret, or the expression itself
    QRegularExpression expression;
    std::function<bool(const QString&)> accepts; // a check beyond the expression (Luhn, digit count); may be empty
};

struct Match
{
    qsizetype start = 0;
    qsizetype length = 0;
    QString pattern; // its name
};

QStringList builtinNames(); // email, phone, card, secret
// The built-in patterns named; an empty list and `error` set when a name is not one of them.
QVector<Pattern> builtin(const QStringList& names, QString* error);
// A pattern from a regular expression; `error` set (with the column) when it does not compile.
QVector<Pattern> custom(const QString& expression, QString* error);
// Every match of `patterns` in `text`, by start, overlaps merged into the first that starts.
QVector<Match> find(const QString& text, const QVector<Pattern>& patterns);
bool luhn(const QString& digits);

} // namespace RedactionPatterns
