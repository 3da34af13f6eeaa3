#pragma once

#include "eventdetails.h"

#include <QWidget>

class JsonTreeModel;
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QToolButton;
class QTreeView;

// The selected event in full: what it is, the tool call it belongs to with links to its other rows, its
// payload as a lazy JSON tree (values copied, paths copied, long values shown whole or saved to a file), and
// the stored text as it is.
class DetailsPane : public QWidget
{
    Q_OBJECT
public:
    explicit DetailsPane(QWidget* parent = nullptr);

    void setDetails(const EventDetails& details);
    void clear();
    const EventDetails& details() const { return m_details; }

    QLabel* header() const { return m_header; }
    QTreeView* tree() const { return m_tree; }
    JsonTreeModel* model() const { return m_model; }
    QPlainTextEdit* raw() const { return m_raw; }
    QPlainTextEdit* text() const { return m_text; } // the text the timeline shows (an assembled message whole)
    QTabWidget* tabs() const { return m_tabs; }
    QToolButton* linkButton(const QString& which) const; // "start", "end", "result", "parent" or "edits"

    // What the tree's context menu does, for a tree index.
    QString valueText(const QModelIndex& index) const; // the value as JSON (a string as its text)
    QString pathText(const QModelIndex& index) const;
    bool saveValue(const QModelIndex& index, const QString& file, QString* error) const;

    // What a redaction of the selection would remove: the event (its index), the JSON path of the string in its
    // payload, the span in that string and the text. The selection is text in the Text tab (the path is then
    // "@message" for an assembled message, redacted in its parts), in the Raw tab inside one string value, or
    // (`index` given) a string value of the Payload tree, whole.
    struct RedactionTarget
    {
        qint64 index = -1;
        QString path;
        qint64 start = 0;
        qint64 length = 0;
        QString text;
        QString error; // why there is nothing to redact; empty when there is
    };
    RedactionTarget selectedText() const;
    RedactionTarget treeValue(const QModelIndex& index) const;
    RedactionTarget selectedInText() const;

signals:
    void goToIndex(qint64 index); // "go to linked event"
    void redactRequested(const DetailsPane::RedactionTarget& target); // "Redact Value…" in the tree
    void showEditsRequested(); // "Edited: Show Original…"

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void fitKeys(); // the key column as wide as its keys, up to two fifths of the pane

private:
    // Read-only, selectable by mouse and keyboard, with Redact Selection in its menu: the Raw and Text tabs.
    void makeSelectable(QPlainTextEdit* edit);
    void showMenu(const QPoint& at);
    void showAll(const QModelIndex& index);

    EventDetails m_details;
    // The payloads the Raw tab shows, where each starts in its text and whose row it is.
    struct Section
    {
        qsizetype offset = 0;
        qint64 index = -1;
        QString text;
        qsizetype shown = 0; // the length in the Raw tab of what it shows of `text` (shownPart's `marked`)
    };
    // What a text tab shows of a long value: its first ViewLimit characters and a line saying how many more there
    // are. A 2 MB payload with no line break (a fetched web page) kept the window busy for seconds laying it out.
    // A bidi override or a NUL in it shows as its code point, "[U+202E]" (ReportText): "invoice <RLO>fdp.exe" read
    // as "invoice exe.pdf". `marked`: the length of that first part as shown (a selection maps back through
    // ReportText::sourcePosition).
    static constexpr qsizetype ViewLimit = 50000;
    static QString shownPart(const QString& text, qsizetype* marked = nullptr);
    QVector<Section> m_sections;
    // The Text tab's text: the row's, or, on the row that answered a call (a RoomKit tool_call_end), the call's result,
    // which is what that row says (its own text names the call with its arguments, as the card does).
    QString m_textSource;
    bool m_textIsResult = false;
    qsizetype m_textShown = 0; // the length of the Text tab's message as shown, before the line of how much more
    QLabel* m_header;
    QToolButton* m_toStart;
    QToolButton* m_toEnd;
    QToolButton* m_toResult;
    QToolButton* m_toParent;
    QToolButton* m_toEdits;
    QTabWidget* m_tabs;
    QTreeView* m_tree;
    JsonTreeModel* m_model;
    QPlainTextEdit* m_raw;
    QPlainTextEdit* m_text;
};
