#pragma once

#include <QString>
#include <stdexcept>

// An error that names the file and the place in it, so a user can find what is wrong.
// Thrown inside the store and caught at its boundaries (the worker, the CLI verbs).
class StoreError : public std::runtime_error
{
public:
    StoreError(QString file, QString place, QString message)
        : std::runtime_error(message.toStdString())
        , m_file(std::move(file))
        , m_place(std::move(place))
        , m_message(std::move(message))
    {
    }

    const QString& file() const { return m_file; }
    const QString& place() const { return m_place; }
    const QString& message() const { return m_message; }

    // "FILE: PLACE: MESSAGE", leaving out the parts that are empty.
    QString toString() const
    {
        QString out = m_file;
        if (!m_place.isEmpty())
            out += (out.isEmpty() ? QString() : QStringLiteral(": ")) + m_place;
        return out.isEmpty() ? m_message : out + QStringLiteral(": ") + m_message;
    }

private:
    QString m_file;
    QString m_place;
    QString m_message;
};
