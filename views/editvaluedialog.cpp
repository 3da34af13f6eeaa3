#include "editvaluedialog.h"

#include "jsontext.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QTextBlock>
#include <QVBoxLayout>

EditValueDialog::EditValueDialog(
    const QString& title, const QString& label, const QString& value, bool json, QWidget* parent)
    : QDialog(parent)
    , m_edit(new QPlainTextEdit(value, this))
    , m_status(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
    , m_json(json)
    , m_initial(value)
{
    setWindowTitle(title);
    auto* layout = new QVBoxLayout(this);
    auto* caption = new QLabel(label + tr(" (Ctrl+Enter saves it)"), this);
    caption->setWordWrap(true);
    layout->addWidget(caption);
    if (json)
        m_edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_edit->setTabChangesFocus(false);
    layout->addWidget(m_edit, 1);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Save Edit"));
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        if (isAcceptable())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Enter breaks the line (JSON is written on several); Ctrl+Enter saves, as in Add Note.
    for (const QKeySequence& keys : { QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter) }) {
        auto* save = new QShortcut(keys, this);
        connect(save, &QShortcut::activated, this, [this] {
            if (isAcceptable())
                accept();
        });
    }
    connect(m_edit, &QPlainTextEdit::textChanged, this, &EditValueDialog::check);
    resize(json ? 720 : 560, json ? 520 : 320);
    check();
}

QString EditValueDialog::value() const
{
    return m_edit->toPlainText();
}

bool EditValueDialog::isAcceptable() const
{
    return m_buttons->button(QDialogButtonBox::Ok)->isEnabled();
}

void EditValueDialog::check()
{
    const QString text = value();
    const bool changed = text != m_initial;
    std::optional<QString> problem;
    QList<QTextEdit::ExtraSelection> marks;
    if (m_json) {
        qsizetype at = 0;
        problem = JsonText::whereNotJson(text, &at);
        if (problem) {
            // The place it stops, marked as a compiler's editor marks an error.
            QTextEdit::ExtraSelection mark;
            mark.cursor = QTextCursor(m_edit->document());
            mark.cursor.setPosition(int(std::min<qsizetype>(at, text.size())));
            mark.cursor.movePosition(QTextCursor::NextCharacter, QTextCursor::KeepAnchor);
            if (!mark.cursor.hasSelection())
                mark.cursor.movePosition(QTextCursor::PreviousCharacter, QTextCursor::KeepAnchor);
            mark.format.setBackground(QColor(0xef, 0x9a, 0x9a));
            mark.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
            mark.format.setUnderlineColor(QColor(0xc6, 0x28, 0x28));
            marks << mark;
        }
    }
    if (problem) {
        m_status->setText(
            QStringLiteral("<span style='color:#c62828'>%1</span>").arg(QString(tr("Not JSON, at ") + *problem).toHtmlEscaped()));
    } else {
        QStringList said;
        if (m_json)
            said << tr("Valid JSON.");
        if (!changed)
            said << tr("Unchanged.");
        m_status->setText(said.join(QLatin1Char(' ')));
    }
    m_edit->setExtraSelections(marks);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(changed && !problem);
}
