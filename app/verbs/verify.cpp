#include "clisession.h"

#include "reportmanifest.h"
#include "reportsignature.h"

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
    m_out.flush();
    return check.ok && signedOk ? Cli::Ok : Cli::Error;
}

// What `sightline verify` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::verifySpec()
{
    return VerbSpec { QStringLiteral("verify"), QStringLiteral("PATH"),
        QStringLiteral("Check a report against its manifest (PATH: the report or REPORT.manifest.json): says which "
                       "file changed since it was written, and with --key whether the manifest is the one that key "
                       "signed; exits 1 when anything is not as it was written."),
        { { QStringLiteral("key"), QStringLiteral("check the manifest's signature with this Ed25519 public key (PEM)"),
            QStringLiteral("PUB") } },
        QStringLiteral("PATH [--key PUB]"), QStringLiteral("check that a report is as it was written"), &Session::verify };
}

} // namespace Cli
