#include "journalchain.h"

#include <QCryptographicHash>

namespace {

void field(QByteArray& out, const QString& value)
{
    if (value.isNull()) {
        out += '~';
        return;
    }
    const QByteArray utf8 = value.toUtf8();
    out += QByteArray::number(utf8.size()) + ':' + utf8;
}

} // namespace

QByteArray JournalChain::hashed(const TeamJournalEntry& e)
{
    QByteArray out;
    field(out, QString::number(e.id));
    field(out, QString::number(e.atMs));
    field(out, QString::number(e.recordedMs));
    field(out, e.author);
    field(out, e.login);
    field(out, e.action);
    field(out, e.system);
    field(out, e.room);
    field(out, e.seq ? QString::number(*e.seq) : QString());
    field(out, e.before);
    field(out, e.after);
    field(out, e.prevHash);
    return out;
}

QString JournalChain::hash(const TeamJournalEntry& entry)
{
    return QString::fromLatin1(QCryptographicHash::hash(hashed(entry), QCryptographicHash::Sha256).toHex());
}

JournalChain::Check JournalChain::verify(const TeamJournalEntries& entries)
{
    Check check;
    check.entries = int(entries.size());
    QString previous; // the first entry follows ''
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const TeamJournalEntry& e = entries.at(i);
        if (e.prevHash != previous) {
            check.broken = i;
            check.why = i == 0 ? QStringLiteral("it is not the first entry the store took: one before it was removed")
                               : QStringLiteral("it does not follow the entry before it: an entry between them was "
                                                "removed, or they were reordered");
            return check;
        }
        if (hash(e) != e.hash) {
            check.broken = i;
            check.why = QStringLiteral("its fields are not those it was written with: it was changed");
            return check;
        }
        previous = e.hash;
    }
    check.head = previous;
    return check;
}
