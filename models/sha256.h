#pragma once

#include <QByteArray>
#include <QByteArrayView>

class QIODevice;
struct evp_md_ctx_st;

// SHA-256 through OpenSSL, which uses the processor's SHA instructions: a report's manifest hashes every byte it
// wrote and every event it was made from, and Qt's own SHA-256 (portable C, about 150 MB/s here) took a third of a
// big export's time.
class Sha256
{
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void addData(QByteArrayView data);
    bool addData(QIODevice* device); // to its end; false when it could not be read
    QByteArray result(); // the 32 bytes; the hash cannot take more data after

    static QByteArray hash(QByteArrayView data);

private:
    evp_md_ctx_st* m_context;
};
