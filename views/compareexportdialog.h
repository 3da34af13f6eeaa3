#pragma once

#include <QDialog>

class QComboBox;
class QLineEdit;

// Where a comparison's report goes (Compare window ▸ Export…): Markdown or HTML, the file, and a key to sign its
// manifest with, the last export's folder and key offered again. The report itself is CompareReport's.
class CompareExportDialog : public QDialog
{
    Q_OBJECT
public:
    // `name`: what the file is called by default ("compare-sup-duplicate-charge").
    CompareExportDialog(const QString& name, QWidget* parent = nullptr);

    QString format() const; // md or html
    QString path() const;
    QString signingKey() const; // empty: unsigned

    void setPath(const QString& path);
    void accept() override; // the choices remembered (the folder, the key) for the next export

private:
    QComboBox* m_format;
    QLineEdit* m_path;
    QLineEdit* m_key;
};
