// The preferences kept between runs (Settings): each one typed, and each stored under the key users' settings files
// already hold, so that an update never forgets what someone chose. Read back as QSettings sees them.

#include "settings.h"

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

class TestSettings : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // a settings file of the tests' own, never the user's
        QCoreApplication::setOrganizationName(QStringLiteral("SightlineTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_settings"));
        QSettings().clear();
    }

    void cleanupTestCase() { QSettings().clear(); }

    // Nothing chosen yet: the defaults the window starts from.
    void defaults()
    {
        QSettings().clear();
        QVERIFY(Settings::author().isEmpty());
        QVERIFY(Settings::theme().isEmpty());
        QVERIFY(Settings::recentFiles().isEmpty());
        QVERIFY(!Settings::hiddenRoomColumns());
        QVERIFY(Settings::window().geometry.isEmpty());
        const Settings::Export choices = Settings::exportChoices();
        QCOMPARE(choices.format, QStringLiteral("pdf"));
        QVERIFY(!choices.scope);
        QVERIFY(!choices.expanded);
    }

    void eachUnderItsKey()
    {
        QSettings().clear();
        Settings::setAuthor(QStringLiteral("  Ada Reviewer "));
        Settings::setTheme(QStringLiteral("dark"));
        Settings::setRecentFiles({ QStringLiteral("/a.sqlite"), QStringLiteral("/b.jsonl") });
        Settings::setRecentDatabases({ QStringLiteral("postgresql://ada@db/roomkit") });
        Settings::setSavedFilters({ { QStringLiteral("failures"), QStringLiteral("outcome:failed") } });
        Settings::setCurrentFilter(QStringLiteral("type:message"));
        Settings::setHiddenRoomColumns({ 4, 7 });
        Settings::setWindow({ QByteArray("g"), QByteArray("s"), QByteArray("d") });
        Settings::Export chosen;
        chosen.format = QStringLiteral("jsonl");
        chosen.scope = 1;
        chosen.expanded = true;
        chosen.signingKey = QStringLiteral("/keys/audit.pem");
        chosen.folder = QStringLiteral("/reports");
        Settings::setExportChoices(chosen);

        const QSettings raw;
        QCOMPARE(raw.value(QStringLiteral("editor/author")).toString(), QStringLiteral("Ada Reviewer"));
        QCOMPARE(raw.value(QStringLiteral("view/theme")).toString(), QStringLiteral("dark"));
        QCOMPARE(raw.value(QStringLiteral("files/recent")).toStringList(),
            QStringList({ QStringLiteral("/a.sqlite"), QStringLiteral("/b.jsonl") }));
        QCOMPARE(raw.value(QStringLiteral("databases/recent")).toStringList(),
            QStringList { QStringLiteral("postgresql://ada@db/roomkit") });
        QCOMPARE(raw.value(QStringLiteral("filters/saved")).toMap().value(QStringLiteral("failures")).toString(),
            QStringLiteral("outcome:failed"));
        QCOMPARE(raw.value(QStringLiteral("filters/current")).toString(), QStringLiteral("type:message"));
        QCOMPARE(raw.value(QStringLiteral("roomList/hiddenColumns")).toList(), QVariantList({ 4, 7 }));
        QCOMPARE(raw.value(QStringLiteral("window/geometry")).toByteArray(), QByteArray("g"));
        QCOMPARE(raw.value(QStringLiteral("window/splitter")).toByteArray(), QByteArray("s"));
        QCOMPARE(raw.value(QStringLiteral("window/docks")).toByteArray(), QByteArray("d"));
        QCOMPARE(raw.value(QStringLiteral("export/format")).toString(), QStringLiteral("jsonl"));
        QCOMPARE(raw.value(QStringLiteral("export/scope")).toInt(), 1);
        QCOMPARE(raw.value(QStringLiteral("export/expanded")).toBool(), true);
        QCOMPARE(raw.value(QStringLiteral("export/signingKey")).toString(), QStringLiteral("/keys/audit.pem"));
        QCOMPARE(raw.value(QStringLiteral("export/folder")).toString(), QStringLiteral("/reports"));

        // And read back, typed.
        QCOMPARE(Settings::author(), QStringLiteral("Ada Reviewer"));
        QCOMPARE(*Settings::hiddenRoomColumns(), QList<int>({ 4, 7 }));
        QCOMPARE(Settings::exportChoices().scope, std::optional<int>(1));
        QCOMPARE(Settings::exportChoices().signingKey, QStringLiteral("/keys/audit.pem"));
        // Every column shown is a choice too: kept as none hidden, not taken for "never chosen".
        Settings::setHiddenRoomColumns({});
        QVERIFY(Settings::hiddenRoomColumns());
        QVERIFY(Settings::hiddenRoomColumns()->isEmpty());
        // A range or the marked events are not remembered as the scope: the last one kept stays.
        Settings::Export once = Settings::exportChoices();
        once.scope.reset();
        Settings::setExportChoices(once);
        QCOMPARE(Settings::exportChoices().scope, std::optional<int>(1));
    }
};

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
