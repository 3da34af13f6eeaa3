#include "searchresultsdock.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

SearchResultsDock::SearchResultsDock(QWidget* parent)
    : QDockWidget(tr("Search Results"), parent)
    , m_tree(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("searchResultsDock"));
    m_tree->setObjectName(QStringLiteral("searchResults"));
    m_tree->setHeaderLabels({ tr("Room"), tr("Index"), tr("Time"), tr("Type"), tr("Text") });
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    // Under the hits, while rooms are not read yet: which were not searched, and an offer to read them.
    m_notSearched = new QWidget(this);
    m_notSearchedText = new QLabel(m_notSearched);
    m_notSearchedText->setObjectName(QStringLiteral("notSearched"));
    m_notSearchedText->setWordWrap(true);
    m_read = new QPushButton(tr("Read Them and Search Again"), m_notSearched);
    m_read->setObjectName(QStringLiteral("readNotSearched"));
    auto* line = new QHBoxLayout(m_notSearched);
    line->setContentsMargins(4, 2, 4, 2);
    line->addWidget(m_notSearchedText, 1);
    line->addWidget(m_read);
    m_notSearched->hide();
    auto* body = new QWidget(this);
    auto* column = new QVBoxLayout(body);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(m_tree, 1);
    column->addWidget(m_notSearched);
    setWidget(body);
    connect(m_read, &QPushButton::clicked, this, &SearchResultsDock::readRestRequested);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        emit hitActivated(item->data(0, Qt::UserRole).toLongLong(), item->text(0), item->data(1, Qt::UserRole).toLongLong());
    });
}

namespace {
// The searched text as the title quotes it: a long one elided, since a dock's title sets its least width (a
// long search widened the window past the screen).
QString quotedText(const QString& text)
{
    const QString simple = text.simplified();
    return simple.size() > 40 ? simple.left(39) + QStringLiteral("…") : simple;
}
} // namespace

void SearchResultsDock::searching(const QString& text)
{
    show();
    m_tree->clear();
    setWindowTitle(tr("Search Results: looking for “%1”…").arg(quotedText(text)));
}

void SearchResultsDock::setNotSearched(int rooms, qint64 events, bool reading)
{
    m_notSearched->setVisible(rooms > 0);
    if (rooms == 0)
        return;
    const QLocale locale;
    const QString what = rooms == 1
        ? tr("1 room (%1 events in its source) is not read yet, or only in part: it was searched only as far as it is "
             "read.")
              .arg(locale.toString(events))
        : tr("%1 rooms (%2 events in their sources) are not read yet, or only in part: they were searched only as far "
             "as they are read.")
              .arg(locale.toString(rooms), locale.toString(events));
    m_notSearchedText->setText(reading ? what + tr(" They are being read now.") : what);
    m_read->setText(reading ? tr("Search Again When They Are Read") : tr("Read Them and Search Again"));
}

QString SearchResultsDock::notSearchedText() const
{
    return m_notSearched->isHidden() ? QString() : m_notSearchedText->text();
}

void SearchResultsDock::clear()
{
    m_notSearched->hide();
    m_tree->clear();
    setWindowTitle(tr("Search Results"));
    hide();
}

int SearchResultsDock::hitCount() const
{
    return m_tree->topLevelItemCount();
}

void SearchResultsDock::setResults(const QString& text, const SearchHits& hits)
{
    m_tree->clear();
    setWindowTitle(hits.size() >= Limit
            ? tr("Search Results: the first %1 events holding “%2”").arg(QLocale().toString(Limit), quotedText(text))
            : hits.size() == 1 ? tr("Search Results: 1 event holding “%1”").arg(quotedText(text))
                               : tr("Search Results: %1 events holding “%2”")
                                     .arg(QLocale().toString(hits.size()), quotedText(text)));
    QList<QTreeWidgetItem*> items;
    for (const SearchHit& hit : hits) {
        // A room by its title when it has one (an AG-UI thread's id says little), its id beside it.
        const QString room = hit.roomTitle.isEmpty() || hit.roomTitle == hit.room
            ? hit.room
            : QStringLiteral("%1 (%2)").arg(hit.roomTitle.simplified().left(60), hit.room);
        auto* item = new QTreeWidgetItem({ room, QString::number(hit.index),
            hit.createdMicros
                ? QDateTime::fromMSecsSinceEpoch(hit.createdMicros / 1000).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                : QString(),
            hit.type, hit.text.simplified().left(200) });
        item->setData(0, Qt::UserRole, hit.roomId);
        item->setData(1, Qt::UserRole, hit.index);
        item->setToolTip(4, hit.text.left(2000));
        item->setToolTip(0, room);
        items << item;
    }
    m_tree->addTopLevelItems(items);
    for (int c = 0; c < 4; ++c)
        m_tree->resizeColumnToContents(c);
}
