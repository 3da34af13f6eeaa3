#pragma once

#include <memory>
#include <QAbstractItemModel>
#include <QJsonValue>
#include <vector>

// A JSON document as a tree: key, value and type. Children are made only when a view asks for them, so a
// payload with a hundred thousand entries costs nothing until it is opened. Long strings are cut in the
// display (the whole text stays in FullValueRole); a string that holds JSON itself, as tool results often do,
// opens like an object. What a row shows is made once, when first asked: a view asks every row for a dozen roles
// at each paint, and a 2 MB value written out or copied for each took the details pane a fifth of a second a
// paint. A bidi override or a control character in a key or a value shows as its code point ("[U+202E]"), as in
// reports; the value underneath is as stored.
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
        QJsonValue opened; // what its children come from: the value, or the JSON a string holds (parsed once)
        Node* parent = nullptr;
        int row = 0;
        mutable bool populated = false;
        mutable std::vector<std::unique_ptr<Node>> children;
        // What the row shows, made when first asked (made()).
        mutable bool made = false;
        mutable qsizetype fullSize = 0; // the characters of FullValueRole
        mutable QString shownKey, shownValue;
    };

    const Node* nodeOf(const QModelIndex& index) const;
    void populate(const Node* node) const;
    void made(const Node* node) const;
    static QString path(const Node* node);

    std::unique_ptr<Node> m_root;
};
