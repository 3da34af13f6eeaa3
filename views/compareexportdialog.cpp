#include "compareexportdialog.h"

#include "settings.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

CompareExportDialog::CompareExportDialog(const QString& name, QWidget* parent)
    : QDialog(parent)
    , m_format(new QComboBox(this))
    , m_path(new QLineEdit(this))
    , m_key(new QLineEdit(this))
{
    setWindowTitle(tr("Export the Comparison"));
    m_format->addItem(tr("HTML page"), QStringLiteral("html"));
    m_format->addItem(tr("Markdown"), QStringLiteral("md"));
    const Settings::Export last = Settings::exportChoices();
    const QString folder = QFileInfo(last.folder).isDir() ? last.folder : QDir::homePath();
    m_path->setText(QDir(folder).filePath(name + QStringLiteral(".html")));
    m_path->setMinimumWidth(420);
    // A key remembered from the Export dialog, when its file is still there.
    if (QFileInfo::exists(last.signingKey))
        m_key->setText(last.signingKey);
    m_key->setPlaceholderText(tr("none: the manifest is not signed"));
    m_key->setClearButtonEnabled(true);

    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* pickKey = new QPushButton(tr("Browse…"), this);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path);
    pathRow->addWidget(browse);
    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(m_key);
    keyRow->addWidget(pickKey);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton* go = buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
    go->setDefault(true);
    auto* form = new QFormLayout(this);
    form->addRow(tr("&Format:"), m_format);
    // A row of a layout gets no buddy of its own: the label's is set, so that its Alt key reaches the field.
    auto* pathLabel = new QLabel(tr("&File:"), this);
    pathLabel->setBuddy(m_path);
    auto* keyLabel = new QLabel(tr("&Sign with:"), this);
    keyLabel->setBuddy(m_key);
    form->addRow(pathLabel, pathRow);
    form->addRow(keyLabel, keyRow);
    form->addRow(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        // The suffix follows the format; the name typed is kept.
        const QFileInfo info(path());
        m_path->setText(QDir(info.path()).filePath(info.completeBaseName() + QLatin1Char('.') + format()));
    });
    connect(m_path, &QLineEdit::textChanged, this, [this, go] { go->setEnabled(!path().isEmpty()); });
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getSaveFileName(this, tr("Export the Comparison"), path(),
            format() == QLatin1String("md") ? tr("Markdown (*.md)") : tr("HTML pages (*.html)"));
        if (!chosen.isEmpty())
            m_path->setText(chosen);
    });
    connect(pickKey, &QPushButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getOpenFileName(this, tr("Sign with an Ed25519 Private Key"), signingKey(),
            tr("PEM keys (*.pem *.key);;All files (*)"));
        if (!chosen.isEmpty())
            m_key->setText(chosen);
    });
}

QString CompareExportDialog::format() const
{
    return m_format->currentData().toString();
}

QString CompareExportDialog::path() const
{
    return m_path->text().trimmed();
}

QString CompareExportDialog::signingKey() const
{
    return m_key->text().trimmed();
}

void CompareExportDialog::setPath(const QString& path)
{
    m_path->setText(path);
}

void CompareExportDialog::accept()
{
    Settings::Export choices = Settings::exportChoices();
    choices.folder = QFileInfo(path()).absolutePath();
    choices.signingKey = signingKey();
    Settings::setExportChoices(choices);
    QDialog::accept();
}
