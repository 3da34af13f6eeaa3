#pragma once

#include <memory>
#include <QAbstractItemModel>
#include <QJsonValue>
#include <vector>

// A JSON document as a tree: key, value and type. Children are made only when a view asks for them, so a
// payload with a hundred thousand entries costs nothing until it is opened. Long strings are cut in the
// display (the whole text stays in FullValueRole); a string that holds JSON itself, as tool results often do,
// opens like an object.
class JsonTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { KeyColumn, ValueColumn, TypeColumn, NUM_COLUMNS };
    enum Roles { FullValueRole = Qt::UserRole, PathRole, JsonRole, CutRole };
    static constexpr int DisplayLimit = 200;

    explicit JsonTreeModel(QObject* parent = nullptr);
    ~JsonTreeModel() override;

    // Shows `json`; false (and an empty tree) when it is not JSON.
    bool setJson(const QByteArray& json);
    void clear();

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Node
    {
        QString key; // the member name, or "[n]" in an array
        bool item = false; // an array's item: its path step is [n]
        QJsonValue value;
        bool embedded = false; // a string that holds JSON, opened as the value it holds
        Node* parent = nullptr;
        int row = 0;
        mutable bool populated = false;
        mutable std::vector<std::unique_ptr<Node>> children;
    };

    const Node* nodeOf(const QModelIndex& index) const;
    void populate(const Node* node) const;
    static QString path(const Node* node);

    std::unique_ptr<Node> m_root;
};
