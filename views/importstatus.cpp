#include "importstatus.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QToolButton>

ImportStatus::ImportStatus(QWidget* parent)
    : QWidget(parent)
    , m_label(new QLabel(this))
    , m_bar(new QProgressBar(this))
    , m_cancel(new QToolButton(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    m_bar->setMaximumWidth(160);
    m_bar->setTextVisible(true);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop the import after its current batch; what was read stays"));
    m_cancel->setObjectName(QStringLiteral("importCancel"));
    connect(m_cancel, &QToolButton::clicked, this, &ImportStatus::cancelRequested);
    hide();
}

void ImportStatus::start(const QString& what)
{
    m_label->setText(tr("Importing %1…").arg(what));
    m_bar->setRange(0, 0); // busy until the first batch says how far it is
    m_bar->setValue(0);
    m_bar->setToolTip({});
    show();
}

void ImportStatus::setProgress(qint64 done, qint64 total)
{
    // QProgressBar takes int: per mille, so a million-row import does not overflow it.
    m_bar->setRange(0, 1000);
    m_bar->setValue(total > 0 ? int(done * 1000 / total) : 1000);
    // In percent, not events: a CraftBot log's first pass over its records counts as work too.
    m_bar->setToolTip(tr("%1 % read").arg(QLocale().toString(total > 0 ? done * 100.0 / total : 100.0, 'f', 1)));
}

void ImportStatus::finish()
{
    hide();
}
