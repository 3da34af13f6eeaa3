#include "cli.h"
#include "sqlitelibrary.h"
#include "mainwindow.h"
#include "settingsfile.h"
#include "sources/pgconnection.h"
#include "theme.h"

#include <cstdio>
#include <QApplication>
#include <QCoreApplication>
#include <QFileInfo>
#include <QGuiApplication>
#include <memory>
#include <QIcon>
#include <QMessageBox>
#include <QTextStream>

namespace {
QtMessageHandler qtHandler = nullptr;

// The offscreen platform an export lays its text out on asks for a runtime folder, and where XDG_RUNTIME_DIR is not
// set (cron, a container) Qt warns on stderr before it uses one of its own: noise in every export's output.
void withoutRuntimeDirNoise(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set")))
        return;
    if (qtHandler)
        qtHandler(type, context, message);
    else
        QTextStream(stderr) << qFormatLogMessage(type, context, message) << Qt::endl;
}
} // namespace

int main(int argc, char** argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    QCoreApplication::setApplicationName(QStringLiteral("sightline"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SIGHTLINE_VERSION));
    SettingsFile::prepare();

    // The verbs run without a display: a QCoreApplication, no GUI platform plugin; export lays out text (a PDF),
    // which needs fonts: a QGuiApplication on the offscreen platform.
    if (Cli::isCliInvocation(arguments)) {
        std::unique_ptr<QCoreApplication> app;
        if (arguments.value(1) == QLatin1String("export")) {
            qtHandler = qInstallMessageHandler(withoutRuntimeDirNoise);
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            app = std::make_unique<QGuiApplication>(argc, argv);
        } else {
            app = std::make_unique<QCoreApplication>(argc, argv);
        }
        QTextStream out(stdout);
        QTextStream err(stderr);
        if (const QString mismatch = SqliteLibrary::check(); !mismatch.isEmpty()) {
            err << "sightline: " << mismatch << Qt::endl;
            return Cli::Error;
        }
        return Cli::run(arguments, out, err);
    }

    QApplication app(argc, argv);
    // Qt has taken its own options out (-style, -platform, ...): what is left names the file to open.
    arguments = QApplication::arguments();
    if (const QString mismatch = SqliteLibrary::check(); !mismatch.isEmpty()) {
        QTextStream(stderr) << "sightline: " << mismatch << Qt::endl;
        QMessageBox::critical(nullptr, QStringLiteral("Sightline"), mismatch);
        return Cli::Error;
    }
    QApplication::setApplicationDisplayName(QStringLiteral("Sightline"));
    // The installed icon and desktop file carry the app's id; a window manager matches the window to them.
    QGuiApplication::setDesktopFileName(QStringLiteral(SIGHTLINE_APP_ID));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral(SIGHTLINE_APP_ID)));
    Theme::apply(Theme::saved());
    MainWindow window;
    window.show();
    // A file named on the command line; else the source opened last time; else the demo.
    const QStringList recent = window.recentFiles();
    if (arguments.size() > 1) {
        // Said on standard error too, for whoever started it from a terminal or a script.
        if (!PgConnection::isUri(arguments.at(1)) && !QFileInfo::exists(arguments.at(1)))
            QTextStream(stderr) << "sightline: " << arguments.at(1) << ": no such file" << Qt::endl;
        window.openPath(arguments.at(1));
    }
    else if (!recent.isEmpty())
        window.openPath(recent.first());
    else
        window.openDemo();
    return app.exec();
}
