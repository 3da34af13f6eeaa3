#pragma once

#include "eventfilter.h"
#include "facetcounts.h"

#include <functional>
#include <memory>
#include <QAbstractItemModel>
#include <vector>

// The values of a room's fields with their faceted counts, for the filter panes: sections (types under their
// kinds, channels, channel types, tools, outcomes, participants) holding checkable values. A tick means "one
// of these" (type:x), an excluded value (-type:x) is struck out. Rows keep their place while counts change:
// values come in name order and stay, with a count of 0, when the other filters leave none of them, so that
// the box under the pointer does not move between two clicks. Editing a tick does not change the model's
// filter: it asks for a new one (filterEdited) and shows it when setFilter() comes back with it.
class FacetModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { ValueColumn, CountColumn, NUM_COLUMNS };
    enum Roles { FieldRole = Qt::UserRole, ValueRole, CountRole, ExcludedRole, InRoomRole };

    explicit FacetModel(QObject* parent = nullptr);
    ~FacetModel() override;

    // Starts over for another room (no values until its counts come).
    void clear();
    void setCounts(const FacetCounts& counts);
    void setFilter(const EventFilter& filter);
    const EventFilter& filter() const { return m_filter; }
    const FacetCounts& counts() const { return m_counts; }

    // The filter with the value at `index` ticked or not, excluded, alone of its field, or its field cleared.
    EventFilter toggled(const QModelIndex& index) const;
    EventFilter excluded(const QModelIndex& index) const;
    EventFilter only(const QModelIndex& index) const;
    EventFilter cleared(const QModelIndex& index) const; // the whole field (a section: all of its fields)
    // The section of `field` (type and kind share "Types").
    QModelIndex sectionIndex(const QString& field) const;
    QModelIndex valueIndex(const QString& field, const QString& value) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void filterEdited(const EventFilter& filter);

private:
    struct Node;
    Node* node(const QModelIndex& index) const;
    QModelIndex indexOf(const Node* n, int column = 0) const;
    Node* findOrInsert(Node* parent, const QString& field, const QString& value);
    void addMissing(Node* section, const QString& field, const QStringList& values);
    void addFilterValues(); // the values the filter names, listed whether or not the room has them
    void dropGone(Node* parent); // the values the room no longer holds, unless the filter names them
    bool isTicked(const Node* n) const;
    // Runs `change` on every value and tells the views each section's rows changed.
    void forEachNode(const std::function<void(Node*)>& change);
    bool isExcluded(const Node* n) const;

    std::vector<std::unique_ptr<Node>> m_sections;
    FacetCounts m_counts;
    EventFilter m_filter;
};
