#pragma once

#include "teamjournalentry.h"

#include <QByteArray>
#include <QString>

// The team journal's hash chain, checked by the client, not the server: each entry's hash is SHA-256 of its fields
// (each as its length in UTF-8 bytes, a colon and its text; a null field as '~') and of the hash of the entry before,
// as the store's trigger wrote it. An entry changed, removed or moved shows as the first entry whose hash or link
// does not hold.
class JournalChain
{
public:
    struct Check
    {
        int entries = 0;
        QString head; // the last entry's hash: what a signed report names
        qsizetype broken = -1; // the first entry that does not hold (-1: none)
        QString why; // what does not hold there
        bool holds() const { return broken < 0; }
    };

    // The bytes an entry's hash is taken of.
    static QByteArray hashed(const TeamJournalEntry& entry);
    static QString hash(const TeamJournalEntry& entry); // lower-case hex
    static Check verify(const TeamJournalEntries& entries);
};
