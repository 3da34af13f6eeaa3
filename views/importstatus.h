#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

// The import's place in the status bar while one runs: what is importing, how far it is (a bar that also says
// how many events of how many), and Cancel. Hidden when nothing imports.
class ImportStatus : public QWidget
{
    Q_OBJECT
public:
    explicit ImportStatus(QWidget* parent = nullptr);

    void start(const QString& what); // "Importing support.sqlite…", the bar busy until the first progress
    void setProgress(qint64 done, qint64 total);
    void finish(); // hidden

signals:
    void cancelRequested();

private:
    QLabel* m_label;
    QProgressBar* m_bar;
    QToolButton* m_cancel;
};
