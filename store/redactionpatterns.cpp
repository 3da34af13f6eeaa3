#include "redactionpatterns.h"

#include <algorithm>

namespace RedactionPatterns {

namespace {

QString digitsOf(const QString& text)
{
    QString out;
    for (const QChar c : text) {
        if (c.isDigit())
            out += c;
    }
    return out;
}

} // namespace

QStringList builtinNames()
{
    return { QStringLiteral("email"), QStringLiteral("phone"), QStringLiteral("card"), QStringLiteral("secret") };
}

bool luhn(const QString& digits)
{
    int sum = 0;
    bool twice = false;
    for (qsizetype i = digits.size() - 1; i >= 0; --i) {
        int d = digits[i].digitValue();
        if (d < 0)
            return false;
        if (twice) {
            d *= 2;
            if (d > 9)
                d -= 9;
        }
        sum += d;
        twice = !twice;
    }
    return !digits.isEmpty() && sum % 10 == 0;
}

QVector<Pattern> builtin(const QStringList& names, QString* error)
{
    QVector<Pattern> out;
    for (const QString& raw : names) {
        const QString name = raw.trimmed().toLower();
        if (name == QLatin1String("email")) {
            out.append({ name,
                QRegularExpression(QStringLiteral("(?<![\\w.+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}(?![\\w-])")),
                {} });
        } else if (name == QLatin1String("phone")) {
            // International or national numbers of 9 to 15 digits with the usual separators; not a date and time.
            out.append({ name,
                QRegularExpression(QStringLiteral("(?<![\\w+])(?:\\+|00)?\\(?\\d[\\d ().-]{7,18}\\d(?![\\w])")),
                [](const QString& m) {
                    static const QRegularExpression date(QStringLiteral("^\\d{4}-\\d{2}-\\d{2}|\\d{1,2}:\\d{2}"));
                    const qsizetype digits = digitsOf(m).size();
                    return digits >= 9 && digits <= 15 && !date.match(m).hasMatch()
                        && !m.contains(QLatin1String("  "));
                } });
        } else if (name == QLatin1String("card")) {
            out.append({ name, QRegularExpression(QStringLiteral("(?<![\\w-])(?:\\d[ -]?){12,18}\\d(?![\\w-])")),
                [](const QString& m) {
                    const QString digits = digitsOf(m);
                    return digits.size() >= 13 && digits.size() <= 19 && luhn(digits);
                } });
        } else if (name == QLatin1String("secret")) {
            out.append({ name,
                QRegularExpression(QStringLiteral(
                    "Bearer\\s+[A-Za-z0-9\\-._~+/]{16,}=*"
                    "|\\bsk-(?:live-|test-|proj-)?[A-Za-z0-9_-]{16,}"
                    "|\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b"
                    "|\\bgh[pousr]_[A-Za-z0-9]{36,}\\b"
                    "|\\bxox[abprs]-[A-Za-z0-9-]{10,}"
                    "|\\b(?:api[_-]?key|access[_-]?token|secret|password|passwd)\\b[\"']?\\s*[:=]\\s*[\"']?[^\\s\"',;]{8,}"),
                    QRegularExpression::CaseInsensitiveOption),
                {} });
        } else {
            if (error)
                *error = QStringLiteral("no built-in pattern '%1' (%2)").arg(raw, builtinNames().join(QStringLiteral(", ")));
            return {};
        }
    }
    return out;
}

QVector<Pattern> custom(const QString& expression, QString* error)
{
    QRegularExpression re(expression);
    if (!re.isValid()) {
        if (error)
            *error = QStringLiteral("%1 (at column %2)").arg(re.errorString(), QString::number(re.patternErrorOffset() + 1));
        return {};
    }
    if (re.match(QString()).hasMatch()) {
        if (error)
            *error = QStringLiteral("the expression matches empty text: it would redact nothing, everywhere");
        return {};
    }
    return { { expression, re, {} } };
}

QVector<Match> find(const QString& text, const QVector<Pattern>& patterns)
{
    QVector<Match> all;
    for (const Pattern& p : patterns) {
        for (auto it = p.expression.globalMatch(text); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            if (m.capturedLength() == 0 || (p.accepts && !p.accepts(m.captured())))
                continue;
            all.append({ m.capturedStart(), m.capturedLength(), p.name });
        }
    }
    std::sort(all.begin(), all.end(), [](const Match& a, const Match& b) {
        return a.start != b.start ? a.start < b.start : a.length > b.length;
    });
    QVector<Match> out;
    for (const Match& m : all) {
        if (!out.isEmpty() && m.start < out.last().start + out.last().length)
            continue; // inside the one before
        out.append(m);
    }
    return out;
}

} // namespace RedactionPatterns
