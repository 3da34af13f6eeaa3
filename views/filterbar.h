#pragma once

#include "eventfilter.h"

#include <QMap>
#include <QStringList>
#include <QWidget>

class QCompleter;
class QLabel;
class QLineEdit;
class QStringListModel;
class QToolButton;

// The one-line filter above the timeline, in FilterQuery's language. Enter (or a pause in typing) applies
// it; a mistake is shown in place with its column and the last valid filter stays applied. Completion offers
// the field names and the values of fields with a fixed set. Every filter applied goes on a stack that
// Alt+Left and Alt+Right walk (as hotspot's filter history does); filters can be saved by name. A word that
// looks like a field but is none (a URL, a typo) is searched as text, and a quiet note under the bar says so.
class FilterBar : public QWidget
{
    Q_OBJECT
public:
    explicit FilterBar(QWidget* parent = nullptr);

    QLineEdit* edit() const { return m_edit; }
    const EventFilter& filter() const { return m_filter; } // the one applied
    QString error() const; // the mistake shown, empty when none
    QString note() const; // how the filter applied was read, when it may not be what was meant; else empty
    bool isActive() const { return m_active; } // a filter with any term is in force (the field is tinted)
    // Sets the text and applies it (what a pane or a saved filter does).
    void setText(const QString& text);
    bool back(); // Alt+Left: the filter applied before this one
    bool forward(); // Alt+Right
    bool canGoBack() const { return m_at > 0; }
    bool canGoForward() const { return m_at + 1 < m_history.size(); }
    // The room's own values for completion (its types, channels, participants, tools), by field; replaces the
    // last room's.
    void setCompletions(const QMap<QString, QStringList>& values);
    QStringList completions() const; // every term the bar offers to complete
    QStringList savedNames() const;
    void save(const QString& name); // the current text under `name`, kept in the settings
    bool applySaved(const QString& name);

signals:
    void filterChanged(const EventFilter& filter);

private:
    // Applies the text when it parses; `explain`: a mistake is also spelled out under the bar.
    void apply(bool record, bool explain = true);
    void showError(const QString& message, int position, bool banner);
    void updateCompletions();
    void updateTint();
    void changeEvent(QEvent* event) override;
    void fillSavedMenu();

    QLineEdit* m_edit;
    QString m_help; // the field's tooltip: the language in brief
    QLabel* m_error;
    QLabel* m_note;
    QToolButton* m_saved;
    QCompleter* m_completer;
    QStringListModel* m_words;
    QMap<QString, QStringList> m_values;
    EventFilter m_filter;
    QString m_appliedText;
    QStringList m_history;
    int m_at = -1;
    bool m_active = false;
};
