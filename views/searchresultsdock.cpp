#include "searchresultsdock.h"

#include <QDateTime>
#include <QLocale>
#include <QTreeWidget>

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
    setWidget(m_tree);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        emit hitActivated(item->data(0, Qt::UserRole).toLongLong(), item->text(0), item->data(1, Qt::UserRole).toLongLong());
    });
}

void SearchResultsDock::searching(const QString& text)
{
    show();
    m_tree->clear();
    setWindowTitle(tr("Search Results: looking for “%1”…").arg(text));
}

void SearchResultsDock::setResults(const QString& text, const SearchHits& hits)
{
    m_tree->clear();
    setWindowTitle(hits.size() >= Limit
            ? tr("Search Results: the first %1 events holding “%2”").arg(QLocale().toString(Limit), text)
            : tr("Search Results: %1 events holding “%2”").arg(QLocale().toString(hits.size()), text));
    QList<QTreeWidgetItem*> items;
    for (const SearchHit& hit : hits) {
        auto* item = new QTreeWidgetItem({ hit.room, QString::number(hit.index),
            hit.createdMicros
                ? QDateTime::fromMSecsSinceEpoch(hit.createdMicros / 1000).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                : QString(),
            hit.type, hit.text.simplified().left(200) });
        item->setData(0, Qt::UserRole, hit.roomId);
        item->setData(1, Qt::UserRole, hit.index);
        item->setToolTip(4, hit.text.left(2000));
        items << item;
    }
    m_tree->addTopLevelItems(items);
    for (int c = 0; c < 4; ++c)
        m_tree->resizeColumnToContents(c);
}
