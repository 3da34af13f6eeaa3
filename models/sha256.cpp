#include "sha256.h"

#include <QIODevice>

#include <openssl/evp.h>

Sha256::Sha256()
    : m_context(EVP_MD_CTX_new())
{
    if (!m_context || EVP_DigestInit_ex(m_context, EVP_sha256(), nullptr) != 1)
        qFatal("OpenSSL has no SHA-256");
}

Sha256::~Sha256()
{
    EVP_MD_CTX_free(m_context);
}

void Sha256::addData(QByteArrayView data)
{
    EVP_DigestUpdate(m_context, data.data(), size_t(data.size()));
}

bool Sha256::addData(QIODevice* device)
{
    QByteArray block(1 << 20, Qt::Uninitialized);
    for (;;) {
        const qint64 n = device->read(block.data(), block.size());
        if (n < 0)
            return false;
        if (n == 0)
            return true;
        addData(QByteArrayView(block.constData(), n));
    }
}

QByteArray Sha256::result()
{
    QByteArray digest(EVP_MAX_MD_SIZE, Qt::Uninitialized);
    unsigned int length = 0;
    EVP_DigestFinal_ex(m_context, reinterpret_cast<unsigned char*>(digest.data()), &length);
    digest.truncate(qsizetype(length));
    return digest;
}

QByteArray Sha256::hash(QByteArrayView data)
{
    Sha256 h;
    h.addData(data);
    return h.result();
}
