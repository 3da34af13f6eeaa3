#include "pgsessions.h"

#include <QSqlDatabase>

PgSessions::~PgSessions()
{
    closeAll();
}

void PgSessions::closeAll()
{
    for (const Kept& k : std::as_const(m_kept))
        close(k.name);
    m_kept.clear();
}

QString PgSessions::take(const QString& uri)
{
    closeIdle();
    for (qsizetype i = 0; i < m_kept.size(); ++i) {
        if (m_kept[i].uri == uri)
            return m_kept.takeAt(i).name;
    }
    return {};
}

void PgSessions::keep(const QString& uri, const QString& name)
{
    closeIdle();
    // One a URI: a second connection to the same database (a listing beside an import) is not kept.
    for (const Kept& k : std::as_const(m_kept)) {
        if (k.uri == uri) {
            close(name);
            return;
        }
    }
    Kept k { uri, name, {} };
    k.idle.start();
    m_kept.append(k);
}

void PgSessions::closeIdle()
{
    for (qsizetype i = m_kept.size() - 1; i >= 0; --i) {
        if (m_kept[i].idle.elapsed() > IdleMs)
            close(m_kept.takeAt(i).name);
    }
}

void PgSessions::close(const QString& name)
{
    {
        QSqlDatabase db = QSqlDatabase::database(name, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
}
