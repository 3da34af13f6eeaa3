#include "filterbar.h"

#include "filterquery.h"
#include "settings.h"

#include <QApplication>
#include <QAbstractItemView>
#include <QCompleter>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QStringListModel>
#include <QTimer>
#include <QToolButton>

namespace {


// The term under the cursor: from the last space before it (outside quotes) to the cursor.
int termStart(const QString& text, int cursor)
{
    bool quoted = false;
    int start = 0;
    for (int i = 0; i < cursor && i < text.size(); ++i) {
        if (text.at(i) == QLatin1Char('"'))
            quoted = !quoted;
        else if (text.at(i).isSpace() && !quoted)
            start = i + 1;
    }
    return start;
}

} // namespace

FilterBar::FilterBar(QWidget* parent)
    : QWidget(parent)
    , m_edit(new QLineEdit(this))
    , m_error(new QLabel(this))
    , m_note(new QLabel(this))
    , m_saved(new QToolButton(this))
    , m_completer(new QCompleter(this))
    , m_words(new QStringListModel(this))
{
    m_edit->setObjectName(QStringLiteral("filterEdit"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setPlaceholderText(
        tr("Filter: type:message tool:web_search outcome:failed -channel:sms after:2026-07-17T10:00 \"a phrase\""));
    m_help = tr("<p>Fields: %1. <b>-field:value</b> leaves a value out; the same field twice means "
                "either value; words and \"phrases\" search message text, tool arguments and results. "
                "Enter applies; Alt+Left and Alt+Right step through the filters applied.</p>")
                 .arg(FilterQuery::fields().join(QStringLiteral(", ")));
    m_edit->setToolTip(m_help);
    m_error->setObjectName(QStringLiteral("filterError"));
    m_error->setForegroundRole(QPalette::BrightText);
    m_error->setAutoFillBackground(true);
    QPalette errorPalette = m_error->palette();
    errorPalette.setColor(QPalette::Window, QColor(0xc0, 0x39, 0x2b));
    errorPalette.setColor(QPalette::BrightText, Qt::white);
    m_error->setPalette(errorPalette);
    m_error->setMargin(3);
    m_error->setWordWrap(true); // a long message wraps rather than widening the window's middle
    m_error->hide();
    m_note->setObjectName(QStringLiteral("filterNote"));
    m_note->setWordWrap(true);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    m_note->hide();
    m_saved->setText(tr("Saved"));
    m_saved->setToolTip(tr("Saved filters"));
    m_saved->setPopupMode(QToolButton::InstantPopup);
    m_saved->setMenu(new QMenu(m_saved));
    connect(m_saved->menu(), &QMenu::aboutToShow, this, &FilterBar::fillSavedMenu);

    m_completer->setModel(m_words);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->setWidget(m_edit);
    // The completer completes the term under the cursor, not the whole line.
    connect(m_completer, qOverload<const QString&>(&QCompleter::activated), this, [this](const QString& word) {
        const QString text = m_edit->text();
        const int cursor = m_edit->cursorPosition();
        const int start = termStart(text, cursor);
        const int negation = text.mid(start, 1) == QLatin1String("-") ? 1 : 0;
        const QString completed = text.left(start + negation) + word;
        m_edit->setText(completed + text.mid(cursor));
        m_edit->setCursorPosition(int(completed.size()));
    });
    connect(m_edit, &QLineEdit::textEdited, this, [this] {
        const QString text = m_edit->text();
        const int cursor = m_edit->cursorPosition();
        QString term = text.mid(termStart(text, cursor), cursor - termStart(text, cursor));
        if (term.startsWith(QLatin1Char('-')))
            term.remove(0, 1);
        updateCompletions();
        if (term.isEmpty()) {
            m_completer->popup()->hide();
            return;
        }
        m_completer->setCompletionPrefix(term);
        if (m_completer->completionCount() > 0
            && !(m_completer->completionCount() == 1 && m_completer->currentCompletion() == term))
            m_completer->complete();
        else
            m_completer->popup()->hide();
    });
    auto* pause = new QTimer(this);
    pause->setSingleShot(true);
    pause->setInterval(400);
    // A pause applies what parses; a mistake mid-word only marks the field until Enter asks what is wrong.
    connect(pause, &QTimer::timeout, this, [this] { apply(true, false); });
    connect(m_edit, &QLineEdit::textEdited, pause, qOverload<>(&QTimer::start));
    connect(m_edit, &QLineEdit::returnPressed, this, [this, pause] {
        pause->stop();
        apply(true);
    });
    connect(m_edit, &QLineEdit::textChanged, this, [this, pause](const QString& text) {
        if (text.isEmpty() && !m_appliedText.isEmpty()) { // the clear button
            pause->stop();
            apply(true);
        }
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 2);
    layout->setSpacing(2);
    auto* line = new QHBoxLayout;
    line->addWidget(m_edit, 1);
    line->addWidget(m_saved);
    layout->addLayout(line);
    layout->addWidget(m_error);
    layout->addWidget(m_note);
    updateCompletions();
}

QString FilterBar::error() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void FilterBar::updateTint()
{
    // A filter in force tints the field, so that a filter carried over from another room or a restart is seen;
    // from the application's palette each time, so that it follows a change of theme.
    QPalette tinted = QApplication::palette(m_edit);
    if (m_active) {
        const QColor base = tinted.color(QPalette::Base), mark = tinted.color(QPalette::Highlight);
        tinted.setColor(QPalette::Base,
            QColor((base.red() * 5 + mark.red()) / 6, (base.green() * 5 + mark.green()) / 6,
                (base.blue() * 5 + mark.blue()) / 6));
    }
    m_edit->setPalette(tinted);
}

void FilterBar::changeEvent(QEvent* event)
{
    // A theme chosen: the palette reaches this bar as its own change (Qt 6 sends ApplicationPaletteChange to the
    // application alone), and the field's tint is made again from the new one (it kept the old theme's colours).
    if (event->type() == QEvent::ApplicationPaletteChange || event->type() == QEvent::PaletteChange)
        updateTint();
    QWidget::changeEvent(event);
}

QString FilterBar::note() const
{
    return m_note->isHidden() ? QString() : m_note->text();
}

void FilterBar::setText(const QString& text)
{
    m_edit->setText(text);
    apply(true);
}

void FilterBar::apply(bool record, bool explain)
{
    const QString text = m_edit->text().trimmed();
    const FilterQuery::Result r = FilterQuery::parse(text);
    if (!r.ok()) {
        showError(r.error, r.position, explain);
        return; // the last valid filter stays applied
    }
    showError({}, -1, false);
    m_active = r.filter.terms() > 0;
    updateTint();
    m_note->setText(r.note);
    m_note->setVisible(!r.note.isEmpty());
    if (text == m_appliedText && r.filter == m_filter)
        return;
    m_appliedText = text;
    m_filter = r.filter;
    if (record) {
        m_history = m_history.mid(0, m_at + 1);
        m_history << text;
        m_at = int(m_history.size()) - 1;
    }
    emit filterChanged(m_filter);
}

void FilterBar::showError(const QString& message, int position, bool banner)
{
    if (message.isEmpty()) {
        m_error->clear();
        m_error->hide();
        m_edit->setStyleSheet(QString());
        m_edit->setToolTip(m_help);
        return;
    }
    const QString text = tr("Column %1: %2 (the filter before it stays applied)").arg(position + 1).arg(message);
    m_edit->setStyleSheet(QStringLiteral("QLineEdit { border: 1px solid #c0392b; }"));
    m_edit->setToolTip(text);
    if (banner) {
        m_error->setText(text);
        m_error->show();
    }
}

bool FilterBar::back()
{
    if (!canGoBack())
        return false;
    m_edit->setText(m_history.at(--m_at));
    apply(false);
    return true;
}

bool FilterBar::forward()
{
    if (!canGoForward())
        return false;
    m_edit->setText(m_history.at(++m_at));
    apply(false);
    return true;
}

void FilterBar::setCompletions(const QMap<QString, QStringList>& values)
{
    m_values = values;
    updateCompletions();
}

QStringList FilterBar::completions() const
{
    return m_words->stringList();
}

void FilterBar::updateCompletions()
{
    QStringList words;
    for (const QString& field : FilterQuery::fields()) {
        words << field + QLatin1Char(':');
        QStringList values = FilterQuery::valuesOf(field) + m_values.value(field);
        values.removeDuplicates();
        for (const QString& v : values)
            words << field + QLatin1Char(':')
                    + (v.contains(QLatin1Char(' ')) ? QLatin1Char('"') + v + QLatin1Char('"') : v);
    }
    if (m_words->stringList() != words)
        m_words->setStringList(words);
}

QStringList FilterBar::savedNames() const
{
    QStringList names = Settings::savedFilters().keys();
    names.sort(Qt::CaseInsensitive);
    return names;
}

void FilterBar::save(const QString& name)
{
    QVariantMap saved = Settings::savedFilters();
    saved.insert(name, m_edit->text().trimmed());
    Settings::setSavedFilters(saved);
}

bool FilterBar::applySaved(const QString& name)
{
    const QVariantMap saved = Settings::savedFilters();
    if (!saved.contains(name))
        return false;
    setText(saved.value(name).toString());
    return true;
}

void FilterBar::fillSavedMenu()
{
    QMenu* menu = m_saved->menu();
    menu->clear();
    QAction* save = menu->addAction(tr("Save This Filter…"), this, [this] {
        bool ok = false;
        const QString name = QInputDialog::getText(
            this, tr("Save the filter"), tr("Name:"), QLineEdit::Normal, m_edit->text().trimmed(), &ok);
        if (ok && !name.trimmed().isEmpty())
            this->save(name.trimmed());
    });
    save->setEnabled(!m_edit->text().trimmed().isEmpty() && error().isEmpty());
    const QStringList names = savedNames();
    if (!names.isEmpty())
        menu->addSeparator();
    for (const QString& name : names)
        menu->addAction(name, this, [this, name] { applySaved(name); });
    if (!names.isEmpty()) {
        menu->addSeparator();
        QMenu* remove = menu->addMenu(tr("Forget"));
        for (const QString& name : names) {
            remove->addAction(name, this, [name] {
                QVariantMap saved = Settings::savedFilters();
                saved.remove(name);
                Settings::setSavedFilters(saved);
            });
        }
    }
}
