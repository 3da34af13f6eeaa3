#include "sourcestamps.h"

#include "importer.h"
#include "pgconnection.h"

void SourceStamps::reset(const QStringList& sources)
{
    m_sources = sources;
    m_looks = 0;
    m_seen.clear();
    m_pending.clear();
    for (const QString& source : sources)
        m_seen.insert(source, Importer::stamp(source));
}

QStringList SourceStamps::due(bool askDatabases)
{
    m_pending.clear();
    QStringList out;
    for (const QString& source : std::as_const(m_sources)) {
        // A database says what is new only when asked.
        if (PgConnection::isUri(source)) {
            if (askDatabases)
                out << source;
            continue;
        }
        const QByteArray stamp = Importer::stamp(source);
        if (stamp != m_seen.value(source)) {
            out << source;
            m_pending.insert(source, stamp);
        }
    }
    return out;
}

void SourceStamps::synced()
{
    for (auto it = m_pending.cbegin(); it != m_pending.cend(); ++it)
        m_seen.insert(it.key(), it.value());
    m_pending.clear();
}

void SourceStamps::failed()
{
    m_pending.clear();
}
