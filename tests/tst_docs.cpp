// Every command block of the README and of the user guide runs as written: a ```sh block, a line a command, in a
// folder and a home of its own, with `sightline` on the PATH and the source tree's tests/data beside it (the
// examples name its logs from the top of the source tree). A command's exit code is 0 unless its line says otherwise
// in a trailing comment (`# exits 1: they differ`). A block preceded by `<!-- docs-test: skip (why) -->` (the
// set-up: builds and installs) is not run, and says why.
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Block
{
    QString where; // README.md:42
    QStringList lines; // the commands, a line each (continuations joined)
    QString skip; // why it is not run; empty: it runs
};

QList<Block> blocks(const QString& relative)
{
    QFile file(QStringLiteral(SIGHTLINE_SOURCE_DIR "/") + relative);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    static const QRegularExpression skipMark(QStringLiteral("^<!-- docs-test: skip \\((.+)\\) -->$"));
    QList<Block> out;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines.at(i).trimmed() != QLatin1String("```sh"))
            continue;
        Block b;
        b.where = QStringLiteral("%1:%2").arg(relative).arg(i + 1);
        const QRegularExpressionMatch skip = i > 0 ? skipMark.match(lines.at(i - 1).trimmed()) : QRegularExpressionMatch();
        if (skip.hasMatch())
            b.skip = skip.captured(1);
        QString pending;
        for (++i; i < lines.size() && lines.at(i).trimmed() != QLatin1String("```"); ++i) {
            QString line = lines.at(i);
            if (line.endsWith(QLatin1Char('\\'))) {
                pending += line.chopped(1) + QLatin1Char(' ');
                continue;
            }
            line = pending + line;
            pending.clear();
            if (!line.trimmed().isEmpty() && !line.trimmed().startsWith(QLatin1Char('#')))
                b.lines << line;
        }
        out << b;
    }
    return out;
}

// The exit code a line says it ends with (`# exits 1...`), else 0.
int expectedExit(const QString& line)
{
    static const QRegularExpression exits(QStringLiteral("#\\s*exits (\\d+)"));
    const QRegularExpressionMatch m = exits.match(line);
    return m.hasMatch() ? m.captured(1).toInt() : 0;
}

} // namespace

class TestDocs : public QObject
{
    Q_OBJECT

private slots:
    void commandBlocksRun_data()
    {
        QTest::addColumn<QStringList>("lines");
        QTest::addColumn<QString>("skip");
        int runnable = 0;
        for (const QString& doc : { QStringLiteral("README.md"), QStringLiteral("docs/USER-GUIDE.md") }) {
            const QList<Block> found = blocks(doc);
            QVERIFY2(!found.isEmpty(), qPrintable(doc + QStringLiteral(" has no command block (or was not found)")));
            for (const Block& b : found) {
                QTest::newRow(qPrintable(b.where)) << b.lines << b.skip;
                runnable += b.skip.isEmpty() ? 1 : 0;
            }
        }
        QVERIFY(runnable >= 5); // the examples are there, not all of them skipped
    }

    void commandBlocksRun()
    {
        QFETCH(QStringList, lines);
        QFETCH(QString, skip);
        if (!skip.isEmpty())
            QSKIP(qPrintable(QStringLiteral("not run here: ") + skip));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // The source tree's logs, where the examples name them (from its top); the rest of the folder the block's own.
        QVERIFY(QFile::link(QStringLiteral(SIGHTLINE_SOURCE_DIR "/tests"), dir.filePath(QStringLiteral("tests"))));
        QString script = QStringLiteral("set -u\n");
        for (const QString& line : lines) {
            const int expected = expectedExit(line);
            QString quoted = line;
            quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
            // Concatenated, not arg()ed: a command may hold a % of its own.
            script += QStringLiteral("{ ") + line + QStringLiteral("\n} >>\"$LOG\" 2>&1; rc=$?\nif [ $rc -ne ")
                + QString::number(expected) + QStringLiteral(" ]; then echo 'exit '$rc' (the docs say ") + QString::number(expected)
                + QStringLiteral("): ") + quoted + QStringLiteral("'; tail -n 30 \"$LOG\"; exit 1; fi\n");
        }
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"),
            QFileInfo(QStringLiteral(SIGHTLINE_BINARY)).absolutePath() + QLatin1Char(':') + env.value(QStringLiteral("PATH")));
        env.insert(QStringLiteral("HOME"), dir.path());
        env.insert(QStringLiteral("XDG_CACHE_HOME"), dir.filePath(QStringLiteral(".cache")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral(".config")));
        env.insert(QStringLiteral("LOG"), dir.filePath(QStringLiteral(".log")));
        env.remove(QStringLiteral("USER")); // a change is signed with --author, else the login name: as on any machine
        QProcess bash;
        bash.setProcessEnvironment(env);
        bash.setWorkingDirectory(dir.path());
        bash.start(QStringLiteral("bash"), { QStringLiteral("-c"), script });
        QVERIFY(bash.waitForFinished(300000));
        const QString said = QString::fromUtf8(bash.readAllStandardOutput() + bash.readAllStandardError());
        QVERIFY2(bash.exitStatus() == QProcess::NormalExit && bash.exitCode() == 0, qPrintable(said));
    }

    // The blocks that are not run say why, and the two set-up commands are the ones CI runs (.ci/run runs the second
    // exactly as the README gives it).
    void theSetUpCommandsAreCIs()
    {
        QFile run(QStringLiteral(SIGHTLINE_SOURCE_DIR "/.ci/run"));
        QVERIFY(run.open(QIODevice::ReadOnly));
        const QString ci = QString::fromUtf8(run.readAll()).trimmed().split(QLatin1Char('\n')).last();
        bool found = false;
        for (const Block& b : blocks(QStringLiteral("README.md")))
            found = found || (b.lines == QStringList { ci } && !b.skip.isEmpty());
        QVERIFY2(found, qPrintable(QStringLiteral("the README has no block of CI's command: ") + ci));
    }
};

QTEST_GUILESS_MAIN(TestDocs)
#include "tst_docs.moc"
