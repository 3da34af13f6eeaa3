#pragma once

#include <QByteArray>
#include <QString>

// An Ed25519 signature of a report's manifest (OpenSSL), so that a report and its manifest cannot both be changed
// unnoticed: REPORT.manifest.json.sig beside the manifest holds the signature of the manifest's exact bytes, in
// base64. Keys are PEM files as OpenSSL writes them (`openssl genpkey -algorithm ed25519 -out key.pem`, and
// `openssl pkey -in key.pem -pubout -out key.pub`).
class ReportSignature
{
public:
    // Where the signature of `manifest` goes: out.csv.manifest.json -> out.csv.manifest.json.sig.
    static QString pathFor(const QString& manifest);
    // The SHA-256 (hex) of the raw public key of the private key in `privateKeyPem`: what the manifest names as
    // the key that signs it. Throws StoreError naming the file when it holds no Ed25519 private key.
    static QString keyId(const QString& privateKeyPem);
    // The same of a public key's file (or a private key's).
    static QString publicKeyId(const QString& keyPem);
    // Signs the manifest's bytes with the key and writes the signature beside it. Throws StoreError naming the
    // file that cannot be read or written, or the key that is not an Ed25519 private key.
    static QString sign(const QString& manifest, const QString& privateKeyPem);

    enum class Result { Valid, Invalid, Unsigned };
    // Checks the manifest's signature with the public key in `publicKeyPem` (a private key's file does too).
    // Throws StoreError naming the key when it holds no Ed25519 key.
    static Result verify(const QString& manifest, const QString& publicKeyPem);
};
