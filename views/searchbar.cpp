#include "searchbar.h"

#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

SearchBar::SearchBar(QWidget* parent)
    : QWidget(parent)
    , m_edit(new QLineEdit(this))
    , m_position(new QLabel(this))
    , m_previous(new QToolButton(this))
    , m_next(new QToolButton(this))
    , m_allRooms(new QToolButton(this))
    , m_pause(new QTimer(this))
{
    m_edit->setObjectName(QStringLiteral("searchEdit"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setPlaceholderText(tr("Find in the room: words in messages, arguments, results (F3)"));
    m_edit->setToolTip(tr("Enter or F3: the next match; Shift+Enter or Shift+F3: the one before. The rest of the "
                          "timeline stays in sight; the filter bar above hides what does not match."));
    m_position->setObjectName(QStringLiteral("searchPosition"));
    m_position->setMinimumWidth(m_position->fontMetrics().horizontalAdvance(QStringLiteral("999 of 9,999")));
    m_position->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_previous->setArrowType(Qt::UpArrow);
    m_previous->setToolTip(tr("Previous match (Shift+F3)"));
    m_next->setArrowType(Qt::DownArrow);
    m_next->setToolTip(tr("Next match (F3)"));
    m_allRooms->setText(tr("All Rooms"));
    m_allRooms->setToolTip(tr("List the matches in every room (Ctrl+Shift+F)"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_position);
    layout->addWidget(m_previous);
    layout->addWidget(m_next);
    layout->addWidget(m_allRooms);

    m_pause->setSingleShot(true);
    m_pause->setInterval(350);
    auto search = [this] {
        m_pause->stop();
        if (text() == m_searched)
            return false;
        m_searched = text();
        emit searchChanged(m_searched);
        return true;
    };
    connect(m_pause, &QTimer::timeout, this, search);
    connect(m_edit, &QLineEdit::textEdited, this, [this] { m_pause->start(); });
    connect(m_edit, &QLineEdit::textChanged, this, [this](const QString& t) {
        if (t.isEmpty())
            m_pause->start(0); // the clear button: the matches go at once
    });
    // Enter searches when the words changed, and goes to the next match when they did not.
    connect(m_edit, &QLineEdit::returnPressed, this, [this, search] {
        if (!search())
            emit(QGuiApplication::keyboardModifiers() & Qt::ShiftModifier ? previous() : next());
    });
    connect(m_previous, &QToolButton::clicked, this, &SearchBar::previous);
    connect(m_next, &QToolButton::clicked, this, &SearchBar::next);
    connect(m_allRooms, &QToolButton::clicked, this, [this] { emit searchAllRooms(text()); });
    setPosition(-1, 0);
}

QString SearchBar::text() const
{
    return m_edit->text().trimmed();
}

void SearchBar::setSearching()
{
    m_position->setText(tr("…"));
}

void SearchBar::setPosition(int at, int total)
{
    m_previous->setEnabled(total > 0);
    m_next->setEnabled(total > 0);
    if (text().isEmpty())
        m_position->clear();
    else if (total == 0)
        m_position->setText(tr("no matches"));
    else if (at < 0)
        m_position->setText(total == 1 ? tr("1 match") : tr("%1 matches").arg(QLocale().toString(total)));
    else
        m_position->setText(tr("%1 of %2").arg(QLocale().toString(at + 1), QLocale().toString(total)));
}

QString SearchBar::positionText() const
{
    return m_position->text();
}
