#include "exportdialog.h"

#include "reportpreview.h"
#include "settings.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QStackedWidget>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTimer>
#include <QVBoxLayout>

namespace {
constexpr int previewWidth = 380; // the sheet's width in the preview, in device-independent pixels
} // namespace

ExportDialog::ExportDialog(const Context& context, QWidget* parent)
    : QDialog(parent)
    , m_context(context)
    , m_format(new QComboBox(this))
    , m_scope(new QButtonGroup(this))
    , m_rooms(new QButtonGroup(this))
    , m_from(new QLineEdit(this))
    , m_to(new QLineEdit(this))
    , m_eachRoom(new QCheckBox(tr("A report for each room, named after it, in a folder"), this))
    , m_expanded(new QCheckBox(tr("Every tool call's card open (HTML)"), this))
    , m_pathLabel(new QLabel(tr("Save as:"), this))
    , m_path(new QLineEdit(this))
    , m_key(new QLineEdit(this))
    , m_note(new QLabel(this))
    , m_previewStatus(new QLabel(this))
    , m_preview(new QStackedWidget(this))
    , m_pageArea(new QScrollArea(this))
    , m_page(new QLabel(this))
    , m_text(new QPlainTextEdit(this))
    , m_previewTimer(new QTimer(this))
{
    setWindowTitle(tr("Export Report"));
    m_format->addItem(tr("PDF: pages to read, print or file"), QStringLiteral("pdf"));
    m_format->addItem(tr("HTML: one self-contained page"), QStringLiteral("html"));
    m_format->addItem(tr("CSV: a row per event, for a spreadsheet"), QStringLiteral("csv"));
    m_format->addItem(tr("Markdown: a transcript"), QStringLiteral("md"));
    m_format->addItem(tr("JSON Lines: everything, for scripts; Sightline opens it again"), QStringLiteral("jsonl"));

    // Which events.
    auto* whole = new QRadioButton(tr("Every event, blocked rows included"), this);
    auto* filtered = new QRadioButton(context.filter.isEmpty() ? tr("What the filter shows (no filter now)")
                                                               : tr("What the filter shows: %1").arg(context.filter),
        this);
    filtered->setToolTip(context.filter);
    auto* marked = new QRadioButton(tr("The marked events"), this);
    auto* range = new QRadioButton(tr("Events from index"), this);
    m_scope->addButton(whole, int(Scope::Room));
    m_scope->addButton(filtered, int(Scope::Filter));
    m_scope->addButton(marked, int(Scope::Marked));
    m_scope->addButton(range, int(Scope::Range));
    for (QLineEdit* edge : { m_from, m_to }) {
        edge->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{0,18}")), edge));
        edge->setMaximumWidth(fontMetrics().horizontalAdvance(QStringLiteral("0000000000")));
        edge->setClearButtonEnabled(true);
    }
    m_from->setPlaceholderText(tr("the first"));
    m_to->setPlaceholderText(tr("the last"));
    // Several events selected (the raw rows): their range, offered and chosen. One alone is no range.
    const bool severalSelected = context.selection && context.selection->second != context.selection->first;
    if (severalSelected) {
        m_from->setText(QString::number(context.selection->first));
        m_to->setText(QString::number(context.selection->second));
    }
    auto* rangeRow = new QHBoxLayout;
    rangeRow->addWidget(range);
    rangeRow->addWidget(m_from);
    rangeRow->addWidget(new QLabel(tr("to"), this));
    rangeRow->addWidget(m_to);
    rangeRow->addStretch(1);
    // Typing an index chooses the range.
    for (QLineEdit* edge : { m_from, m_to })
        connect(edge, &QLineEdit::textEdited, this, [this] { setScope(Scope::Range); });

    // Which rooms.
    const QString shownName = context.room.isEmpty() ? tr("none") : context.room;
    auto* shown = new QRadioButton(tr("The room shown (%1)").arg(shownName), this);
    auto* selected = new QRadioButton(tr("The rooms selected in the room list (%1)").arg(context.selectedRooms), this);
    selected->setEnabled(context.selectedRooms > 1);
    selected->setToolTip(tr("Ctrl+click or Shift+click rooms in the room list to select several"));
    auto* every = new QRadioButton(tr("Every room of the workspace (%1)").arg(context.rooms), this);
    shown->setEnabled(!context.room.isEmpty());
    m_rooms->addButton(shown, int(Rooms::Shown));
    m_rooms->addButton(selected, int(Rooms::Selected));
    m_rooms->addButton(every, int(Rooms::Every));
    setRooms(context.room.isEmpty() ? Rooms::Every : context.selectedRooms > 1 ? Rooms::Selected : Rooms::Shown);

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
    // The manifest's name is the report's own: said with the file chosen, whatever its format.
    const auto note = [this] {
        const QString report = eachRoom() ? QStringLiteral("ROOM.") + m_format->currentData().toString()
                                          : QFileInfo(path()).fileName();
        m_note->setText(tr("Redactions always apply. A manifest goes beside each report (%1.manifest.json beside %1): "
                           "`sightline verify` tells later whether anything in the report changed; signed with a key, "
                           "whether the report and its manifest were changed together.")
                            .arg(report.isEmpty() ? QStringLiteral("REPORT") : report));
    };
    connect(m_path, &QLineEdit::textChanged, this, note);

    auto* form = new QFormLayout;
    form->addRow(tr("&Format:"), m_format);
    auto* scopes = new QVBoxLayout;
    scopes->addWidget(whole);
    scopes->addWidget(filtered);
    scopes->addWidget(marked);
    scopes->addLayout(rangeRow);
    form->addRow(tr("Events:"), scopes);
    auto* roomRows = new QVBoxLayout;
    for (QAbstractButton* b : m_rooms->buttons())
        roomRows->addWidget(b);
    roomRows->addWidget(m_eachRoom);
    form->addRow(tr("Rooms:"), roomRows);
    form->addRow(QString(), m_expanded);
    form->addRow(m_pathLabel, where);
    form->addRow(tr("Sign with:"), signing);

    // The preview: the report's writer, stopped once it has a page.
    m_page->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_page->setBackgroundRole(QPalette::Dark);
    m_pageArea->setWidget(m_page);
    m_pageArea->setWidgetResizable(true);
    m_pageArea->setAlignment(Qt::AlignHCenter);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_preview->addWidget(m_pageArea);
    m_preview->addWidget(m_text);
    m_preview->setMinimumWidth(previewWidth + 24);
    m_previewStatus->setWordWrap(true);
    auto* previewBox = new QGroupBox(tr("Preview"), this);
    auto* previewLayout = new QVBoxLayout(previewBox);
    previewLayout->addWidget(m_preview, 1);
    previewLayout->addWidget(m_previewStatus);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton* go = buttons->addButton(tr("&Export"), QDialogButtonBox::AcceptRole);
    go->setDefault(true);
    auto* left = new QVBoxLayout;
    left->addLayout(form);
    left->addWidget(m_note);
    left->addStretch(1);
    auto* columns = new QHBoxLayout;
    columns->addLayout(left, 3);
    columns->addWidget(previewBox, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString chosen = eachRoom()
            ? QFileDialog::getExistingDirectory(this, tr("Export a Report for Each Room to"), path())
            : QFileDialog::getSaveFileName(this, tr("Export Report"), path());
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
    const Settings::Export last = Settings::exportChoices();
    const int at = m_format->findData(last.format);
    m_format->setCurrentIndex(std::max(0, at));
    // The whole room or the filter's events; never the marked ones or a range by itself (see the class comment).
    setScope(Scope(std::clamp(last.scope.value_or(int(Scope::Filter)), 0, int(Scope::Filter))));
    // A key remembered from before, when its file is still there: one moved or deleted since would make every export
    // fail until the field is cleared.
    if (QFileInfo::exists(last.signingKey))
        m_key->setText(last.signingKey);
    m_expanded->setChecked(last.expanded);
    if (severalSelected)
        setScope(Scope::Range);
    suggestPath();
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        // The suffix follows the format; a name the user typed is kept.
        if (!eachRoom()) {
            const QFileInfo info(path());
            m_path->setText(info.dir().filePath(info.completeBaseName() + QLatin1Char('.') + format()));
        }
        choicesChanged();
    });
    connect(m_eachRoom, &QCheckBox::toggled, this, [this] {
        suggestPath();
        choicesChanged();
    });
    connect(m_scope, &QButtonGroup::idToggled, this, [this](int, bool on) {
        if (on)
            choicesChanged();
    });
    connect(m_rooms, &QButtonGroup::idToggled, this, [this](int, bool on) {
        if (on)
            choicesChanged();
    });
    connect(m_expanded, &QCheckBox::toggled, this, &ExportDialog::choicesChanged);
    for (QLineEdit* edge : { m_from, m_to })
        connect(edge, &QLineEdit::textChanged, this, &ExportDialog::choicesChanged);
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(250);
    connect(m_previewTimer, &QTimer::timeout, this, [this] {
        m_previewStatus->setText(tr("Making the preview…"));
        emit previewWanted(++m_ticket);
    });
    choicesChanged();
    resize(980, std::max(620, sizeHint().height()));
}

void ExportDialog::choicesChanged()
{
    m_expanded->setEnabled(format() == QLatin1String("html"));
    m_eachRoom->setEnabled(rooms() != Rooms::Shown);
    if (!m_eachRoom->isEnabled() && m_eachRoom->isChecked())
        m_eachRoom->setChecked(false); // toggles back here
    m_pathLabel->setText(eachRoom() ? tr("Save in folder:") : tr("Save as:"));
    m_previewTimer->start();
}

void ExportDialog::suggestPath()
{
    QString folder = Settings::exportChoices().folder;
    // The last folder, else Documents, else home: one that is there.
    for (const QString& candidate : { QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation), QDir::homePath() }) {
        if (!folder.isEmpty() && QFileInfo(folder).isDir())
            break;
        folder = candidate;
    }
    if (eachRoom()) {
        m_path->setText(QDir(folder).filePath(QStringLiteral("sightline-reports")));
        return;
    }
    // The room's name as a file's: what no file system takes out, and no longer than a file manager shows whole.
    QString name = m_context.room.isEmpty() ? QStringLiteral("report") : m_context.room.simplified();
    static const QRegularExpression unsafe(QStringLiteral("[/\\\\:*?\"<>|\\x00-\\x1f]"));
    name.replace(unsafe, QStringLiteral("_"));
    if (name.size() > 60)
        name = name.left(60).trimmed();
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

std::pair<std::optional<qint64>, std::optional<qint64>> ExportDialog::range() const
{
    auto edge = [](const QLineEdit* e) -> std::optional<qint64> {
        bool ok = false;
        const qint64 n = e->text().toLongLong(&ok);
        return ok ? std::optional(n) : std::nullopt;
    };
    return { edge(m_from), edge(m_to) };
}

ExportDialog::Rooms ExportDialog::rooms() const
{
    return Rooms(m_rooms->checkedId());
}

void ExportDialog::setRooms(Rooms rooms)
{
    if (QAbstractButton* b = m_rooms->button(int(rooms)); b && b->isEnabled())
        b->setChecked(true);
}

bool ExportDialog::eachRoom() const
{
    return m_eachRoom->isEnabled() && m_eachRoom->isChecked();
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

void ExportDialog::showPreview(quint64 ticket, const ReportPreview& preview)
{
    if (ticket != m_ticket)
        return; // the choices changed since it was asked for
    if (!preview.page.isNull()) {
        QPixmap page = QPixmap::fromImage(preview.page);
        page.setDevicePixelRatio(qreal(preview.page.width()) / previewWidth);
        m_page->setPixmap(page);
        m_preview->setCurrentWidget(m_pageArea);
        m_previewStatus->setText(format() == QLatin1String("html")
                ? tr("The page's beginning as it prints (a browser shows it with its style; cards open and close).")
                : tr("The first page, as it prints."));
    } else {
        m_text->setPlainText(preview.text);
        m_preview->setCurrentWidget(m_text);
        m_previewStatus->setText(preview.text.isEmpty() ? tr("The report is empty.") : tr("The first lines."));
    }
}

void ExportDialog::showPreviewError(quint64 ticket, const QString& why)
{
    if (ticket != m_ticket)
        return;
    m_previewStatus->setText(tr("No preview: %1").arg(why));
}

void ExportDialog::accept()
{
    if (path().isEmpty())
        return;
    const auto [from, to] = range();
    if (scope() == Scope::Range && from && to && *from > *to) {
        QMessageBox::information(this, tr("Export Report"), tr("The range starts at %1, after its end %2.").arg(*from).arg(*to));
        m_from->setFocus();
        return;
    }
    // A folder that holds files already: its reports of the same rooms would be replaced.
    if (eachRoom() && !QDir(path()).isEmpty() && QFileInfo(path()).isDir()
        && QMessageBox::question(this, tr("Export Report"),
               tr("%1 holds files already. Replace the reports of the same rooms in it (and their manifests)?").arg(path()))
            != QMessageBox::Yes)
        return;
    // A name typed over a report that is there: asked, as the file dialog asks.
    if (!eachRoom() && QFileInfo::exists(path()) && !m_confirmed
        && QMessageBox::question(this, tr("Export Report"), tr("%1 is there already. Replace it (and its manifest)?").arg(path()))
            != QMessageBox::Yes)
        return;
    Settings::Export chosen;
    chosen.format = format();
    if (scope() == Scope::Room || scope() == Scope::Filter) // a range or the marked events are not a habit
        chosen.scope = int(scope());
    chosen.signingKey = signingKey();
    chosen.expanded = m_expanded->isChecked();
    chosen.folder = QFileInfo(path()).absolutePath();
    Settings::setExportChoices(chosen);
    QDialog::accept();
}
