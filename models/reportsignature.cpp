#include "reportsignature.h"

#include "sha256.h"
#include "smallfile.h"

#include "storeerror.h"

#include <memory>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace {

using Key = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using Context = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

// A key or a manifest someone handed over: a regular file of bounded size (SmallFile), never a FIFO read for ever.
QByteArray readAll(const QString& path, const QString& what)
{
    return SmallFile::read(
        path, what, what == QLatin1String("manifest") ? SmallFile::manifestLimit : SmallFile::keyLimit);
}

QString openSslError()
{
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0)
        return QStringLiteral("no PEM key in it");
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    return QString::fromLatin1(text);
}

// The key in a PEM file: a private key, or (when `publicOnly` allows) a public one.
Key readKey(const QString& path, bool publicAllowed)
{
    const QByteArray pem = readAll(path, QStringLiteral("key"));
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.constData(), int(pem.size())), &BIO_free);
    Key key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr), &EVP_PKEY_free);
    if (!key && publicAllowed) {
        ERR_clear_error();
        BIO_reset(bio.get());
        key.reset(PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr));
    }
    if (!key && !publicAllowed && pem.contains("PUBLIC KEY")) {
        ERR_clear_error();
        throw StoreError(path, {}, QStringLiteral("a public key: signing takes the private key (its .pub checks)"));
    }
    if (!key) {
        throw StoreError(path, {},
            QStringLiteral("not an Ed25519 %1 key in PEM (%2)")
                .arg(publicAllowed ? QStringLiteral("public or private") : QStringLiteral("private"), openSslError()));
    }
    if (EVP_PKEY_id(key.get()) != EVP_PKEY_ED25519)
        throw StoreError(path, {}, QStringLiteral("a key of another kind: Sightline signs with Ed25519 keys "
                                                  "(openssl genpkey -algorithm ed25519 -out key.pem)"));
    return key;
}

QString idOf(EVP_PKEY* key)
{
    unsigned char raw[32];
    size_t length = sizeof raw;
    if (EVP_PKEY_get_raw_public_key(key, raw, &length) != 1)
        return {};
    return QString::fromLatin1(
        Sha256::hash(QByteArrayView(reinterpret_cast<const char*>(raw), qsizetype(length)))
            .toHex());
}

} // namespace

QString ReportSignature::pathFor(const QString& manifest)
{
    return manifest + QStringLiteral(".sig");
}

QString ReportSignature::keyId(const QString& privateKeyPem)
{
    return idOf(readKey(privateKeyPem, false).get());
}

QString ReportSignature::publicKeyId(const QString& keyPem)
{
    return idOf(readKey(keyPem, true).get());
}

QString ReportSignature::sign(const QString& manifest, const QString& privateKeyPem)
{
    const Key key = readKey(privateKeyPem, false);
    const QByteArray data = readAll(manifest, QStringLiteral("manifest"));
    Context context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    unsigned char signature[64];
    size_t length = sizeof signature;
    // Ed25519 signs the message itself (no separate digest): the one-shot EVP_DigestSign.
    if (!context || EVP_DigestSignInit(context.get(), nullptr, nullptr, nullptr, key.get()) != 1
        || EVP_DigestSign(context.get(), signature, &length, reinterpret_cast<const unsigned char*>(data.constData()),
               size_t(data.size()))
            != 1)
        throw StoreError(privateKeyPem, {}, QStringLiteral("cannot sign with this key: ") + openSslError());
    const QString path = pathFor(manifest);
    QSaveFile out(path);
    const QByteArray text = QByteArray(reinterpret_cast<const char*>(signature), qsizetype(length)).toBase64() + '\n';
    if (!out.open(QIODevice::WriteOnly) || !out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        || out.write(text) < 0 || !out.commit())
        throw StoreError(path, {}, QStringLiteral("cannot write the signature: ") + out.errorString());
    return path;
}

ReportSignature::Result ReportSignature::verify(const QString& manifest, const QString& publicKeyPem)
{
    const Key key = readKey(publicKeyPem, true);
    const QString sigPath = pathFor(manifest);
    if (!QFileInfo::exists(sigPath))
        return Result::Unsigned;
    const QByteArray signature
        = QByteArray::fromBase64(SmallFile::read(sigPath, QStringLiteral("signature"), SmallFile::keyLimit).trimmed());
    const QByteArray data = readAll(manifest, QStringLiteral("manifest"));
    Context context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (!context || EVP_DigestVerifyInit(context.get(), nullptr, nullptr, nullptr, key.get()) != 1)
        throw StoreError(publicKeyPem, {}, QStringLiteral("cannot check with this key: ") + openSslError());
    const int ok = EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char*>(signature.constData()),
        size_t(signature.size()), reinterpret_cast<const unsigned char*>(data.constData()), size_t(data.size()));
    ERR_clear_error();
    return ok == 1 ? Result::Valid : Result::Invalid;
}
