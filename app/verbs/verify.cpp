#include "clisession.h"

#include "reportmanifest.h"
#include "reportsignature.h"
#include "team/journalchain.h"
#include "team/teamstore.h"

#include <QCommandLineParser>
#include <QFileInfo>

namespace Cli {

int Session::verify(const QStringList& args)
{
    QCommandLineParser parser;
    parse(parser, args, QStringLiteral("verify"));
    const QString path = single(parser);
    const ReportManifest::Check check = ReportManifest::verify(path);
    if (!check.error.isEmpty()) {
        m_err << "sightline: " << check.error << Qt::endl;
        return Cli::Error;
    }
    for (const QString& file : check.changed)
        m_out << "changed: " << file << '\n';
    for (const QString& file : check.missing)
        m_out << "missing: " << file << '\n';
    if (check.ok)
        m_out << "ok: every file " << check.manifest << " lists is as it was written" << '\n';
    // The signature: whether the manifest is the one its key signed, so that a report and its manifest changed
    // together are caught.
    bool signedOk = true;
    const QString key = parser.value(QStringLiteral("key"));
    const QString signature = ReportSignature::pathFor(check.manifest);
    if (!key.isEmpty()) {
        switch (ReportSignature::verify(check.manifest, key)) {
        case ReportSignature::Result::Valid:
            m_out << "signature: valid, by key " << ReportSignature::publicKeyId(key) << '\n';
            break;
        case ReportSignature::Result::Invalid:
            signedOk = false;
            m_out << "signature: INVALID: " << check.manifest
                  << (!check.keyId.isEmpty() && check.keyId != ReportSignature::publicKeyId(key)
                             ? QStringLiteral(" names another signing key (%1)").arg(check.keyId)
                             : QStringLiteral(" changed since it was signed"))
                  << '\n';
            break;
        case ReportSignature::Result::Unsigned:
            signedOk = false;
            m_out << "signature: none: " << signature << " is not there" << '\n';
            break;
        }
    } else if (QFileInfo::exists(signature)) {
        // A signed report checked without its key proves nothing against someone who changed the report and wrote
        // its manifest's digests again: not a pass.
        signedOk = false;
        m_out << "signature: " << signature << " (key " << (check.keyId.isEmpty() ? QStringLiteral("?") : check.keyId)
              << "), not checked: give --key PUBLIC.pem (without it, a report changed together with its manifest "
                 "would pass)"
              << '\n';
    }
    // The team journal the report names: still there, whole, in the store (--team), or said how to check it.
    bool teamOk = true;
    if (check.teamEntries >= 0) {
        const QString named = QStringLiteral("entry %1 (%2)").arg(check.teamEntries).arg(check.teamHead);
        if (!parser.isSet(QStringLiteral("team"))) {
            m_out << "team journal: the report names its head, " << named
                  << "; give --team URI to check that the store still holds it" << '\n';
        } else {
            TeamStore team(parser.value(QStringLiteral("team")));
            const TeamJournalEntries entries = team.journal();
            const JournalChain::Check chain = JournalChain::verify(entries);
            if (team.storeId() != check.teamStore) {
                teamOk = false;
                m_out << "team journal: NOT the store the report names (" << check.teamStore << "; this is "
                      << team.storeId() << ")" << '\n';
            } else if (!chain.holds()) {
                teamOk = false;
                m_out << "team journal: BROKEN at entry " << entries.at(chain.broken).id << ": " << chain.why << '\n';
            } else if (check.teamEntries > chain.entries || (check.teamEntries > 0
                           && entries.at(check.teamEntries - 1).hash != check.teamHead)) {
                teamOk = false;
                m_out << "team journal: it no longer holds the head the report names, " << named << ": "
                      << (check.teamEntries > chain.entries
                                 ? QStringLiteral("it has %1 entries: entries were removed").arg(chain.entries)
                                 : QStringLiteral("the entry there is another: entries were removed or replaced"))
                      << '\n';
            } else {
                m_out << "team journal: it still holds the " << check.teamEntries << " entries the report names, unchanged"
                      << (chain.entries > check.teamEntries ? QStringLiteral(", and %1 made since").arg(chain.entries - check.teamEntries)
                                                            : QString())
                      << '\n';
            }
        }
    }
    m_out.flush();
    return check.ok && signedOk && teamOk ? Cli::Ok : Cli::Error;
}

// What `sightline verify` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::verifySpec()
{
    return VerbSpec { QStringLiteral("verify"), QStringLiteral("PATH"),
        QStringLiteral("Check a report against its manifest (PATH: the report or REPORT.manifest.json): says which "
                       "file changed since it was written, and with --key whether the manifest is the one that key "
                       "signed; exits 1 when anything is not as it was written."),
        { { QStringLiteral("key"), QStringLiteral("check the manifest's signature with this Ed25519 public key (PEM)"),
              QStringLiteral("PUB") },
            { QStringLiteral("team"), QStringLiteral("check that this team store still holds the journal the report names"),
                QStringLiteral("URI") } },
        QStringLiteral("PATH [--key PUB] [--team URI]"), QStringLiteral("check that a report is as it was written"), &Session::verify };
}

} // namespace Cli
