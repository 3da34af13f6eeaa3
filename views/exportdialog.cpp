#include "exportdialog.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace {
const char* const formatKey = "export/format";
const char* const folderKey = "export/folder";
const char* const scopeKey = "export/scope";
const char* const expandedKey = "export/expanded";
const char* const keyKey = "export/signingKey"; // the key file's path, never the key
} // namespace

ExportDialog::ExportDialog(const QString& room, const QString& filter, QWidget* parent)
    : QDialog(parent)
    , m_room(room)
    , m_format(new QComboBox(this))
    , m_scope(new QButtonGroup(this))
    , m_filterScope(new QRadioButton(this))
    , m_everyRoom(new QCheckBox(tr("Every room of the workspace, one after the other"), this))
    , m_expanded(new QCheckBox(tr("Every tool call's card open (HTML)"), this))
    , m_path(new QLineEdit(this))
    , m_key(new QLineEdit(this))
    , m_note(new QLabel(this))
{
    setWindowTitle(tr("Export Report"));
    m_format->addItem(tr("PDF: pages to read, print or file"), QStringLiteral("pdf"));
    m_format->addItem(tr("HTML: one self-contained page"), QStringLiteral("html"));
    m_format->addItem(tr("CSV: a row per event, for a spreadsheet"), QStringLiteral("csv"));
    m_format->addItem(tr("Markdown: a transcript"), QStringLiteral("md"));
    m_format->addItem(tr("JSON Lines: everything, for scripts; Sightline opens it again"), QStringLiteral("jsonl"));
    auto* whole = new QRadioButton(tr("The whole room"), this);
    m_filterScope->setText(filter.isEmpty() ? tr("What the filter shows (no filter now)") : tr("What the filter shows: %1").arg(filter));
    auto* marked = new QRadioButton(tr("The marked events"), this);
    m_scope->addButton(whole, int(Scope::Room));
    m_scope->addButton(m_filterScope, int(Scope::Filter));
    m_scope->addButton(marked, int(Scope::Marked));
    auto* browse = new QPushButton(tr("&Browse…"), this);
    auto* where = new QHBoxLayout;
    where->addWidget(m_path, 1);
    where->addWidget(browse);
    auto* pickKey = new QPushButton(tr("Choose &Key…"), this);
    auto* signing = new QHBoxLayout;
    signing->addWidget(m_key, 1);
    signing->addWidget(pickKey);
    m_key->setPlaceholderText(tr("none: the manifest is not signed"));
    m_key->setToolTip(tr("An Ed25519 private key (PEM), as openssl genpkey -algorithm ed25519 makes. Its public half "
                         "checks the report: sightline verify REPORT --key KEY.pub"));
    m_key->setClearButtonEnabled(true);
    m_note->setWordWrap(true);
    m_note->setText(tr("Redactions always apply. A manifest (REPORT.manifest.json) goes beside the report: "
                       "`sightline verify` tells later whether anything in it changed; signed with a key, whether "
                       "the report and its manifest were changed together."));

    auto* form = new QFormLayout;
    form->addRow(tr("&Format:"), m_format);
    auto* scopes = new QVBoxLayout;
    for (QAbstractButton* b : m_scope->buttons())
        scopes->addWidget(b);
    scopes->addWidget(m_everyRoom);
    form->addRow(tr("Events:"), scopes);
    form->addRow(QString(), m_expanded);
    form->addRow(tr("Save as:"), where);
    form->addRow(tr("Sign with:"), signing);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton* go = buttons->addButton(tr("&Export"), QDialogButtonBox::AcceptRole);
    go->setDefault(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_note);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getSaveFileName(this, tr("Export Report"), path());
        if (!chosen.isEmpty()) {
            m_path->setText(chosen);
            m_confirmed = true; // the file dialog asked
        }
    });
    connect(pickKey, &QPushButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getOpenFileName(this, tr("Sign with an Ed25519 Private Key"), signingKey(),
            tr("PEM keys (*.pem *.key);;All files (*)"));
        if (!chosen.isEmpty())
            m_key->setText(chosen);
    });
    connect(m_path, &QLineEdit::textEdited, this, [this] { m_confirmed = false; });
    connect(m_path, &QLineEdit::textChanged, this, [go, this] { go->setEnabled(!m_path->text().trimmed().isEmpty()); });

    // The last choices, again.
    const QSettings settings;
    const int at = m_format->findData(settings.value(QLatin1String(formatKey), QStringLiteral("pdf")));
    m_format->setCurrentIndex(std::max(0, at));
    // The whole room or the filter's events; never the marked ones by itself (see the class comment).
    setScope(Scope(std::clamp(settings.value(QLatin1String(scopeKey), int(Scope::Filter)).toInt(), 0, int(Scope::Filter))));
    // A key remembered from before, when its file is still there: one moved or deleted since would make every export
    // fail until the field is cleared.
    if (const QString key = settings.value(QLatin1String(keyKey)).toString(); QFileInfo::exists(key))
        m_key->setText(key);
    m_expanded->setChecked(settings.value(QLatin1String(expandedKey), false).toBool());
    suggestPath();
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        // The suffix follows the format; a name the user typed is kept.
        const QFileInfo info(path());
        m_path->setText(info.dir().filePath(info.completeBaseName() + QLatin1Char('.') + format()));
        m_expanded->setEnabled(format() == QLatin1String("html"));
    });
    m_expanded->setEnabled(format() == QLatin1String("html"));
    resize(560, sizeHint().height());
}

void ExportDialog::suggestPath()
{
    QString folder = QSettings().value(QLatin1String(folderKey)).toString();
    // The last folder, else Documents, else home: one that is there.
    for (const QString& candidate : { QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation), QDir::homePath() }) {
        if (!folder.isEmpty() && QFileInfo(folder).isDir())
            break;
        folder = candidate;
    }
    QString name = m_room.isEmpty() ? QStringLiteral("report") : m_room;
    name.replace(QLatin1Char('/'), QLatin1Char('_'));
    m_path->setText(QDir(folder).filePath(name + QLatin1Char('.') + format()));
}

QString ExportDialog::format() const
{
    return m_format->currentData().toString();
}

ExportDialog::Scope ExportDialog::scope() const
{
    return Scope(m_scope->checkedId());
}

void ExportDialog::setScope(Scope scope)
{
    if (QAbstractButton* b = m_scope->button(int(scope)))
        b->setChecked(true);
}

bool ExportDialog::everyRoom() const
{
    return m_everyRoom->isChecked();
}

bool ExportDialog::expanded() const
{
    return m_expanded->isEnabled() && m_expanded->isChecked();
}

QString ExportDialog::path() const
{
    return m_path->text().trimmed();
}

QString ExportDialog::signingKey() const
{
    return m_key->text().trimmed();
}

void ExportDialog::accept()
{
    if (path().isEmpty())
        return;
    // A name typed over a report that is there: asked, as the file dialog asks.
    if (QFileInfo::exists(path()) && !m_confirmed
        && QMessageBox::question(this, tr("Export Report"), tr("%1 is there already. Replace it (and its manifest)?").arg(path()))
            != QMessageBox::Yes)
        return;
    QSettings settings;
    settings.setValue(QLatin1String(formatKey), format());
    if (scope() != Scope::Marked)
        settings.setValue(QLatin1String(scopeKey), int(scope()));
    settings.setValue(QLatin1String(keyKey), signingKey());
    settings.setValue(QLatin1String(expandedKey), m_expanded->isChecked());
    settings.setValue(QLatin1String(folderKey), QFileInfo(path()).absolutePath());
    QDialog::accept();
}
