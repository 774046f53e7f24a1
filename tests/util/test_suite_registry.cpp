// Tests for the suites' shared executables (support/TestSuite.h, suite_main.cpp): `suites_util
// SUITE [QtTest options]` runs that suite alone with the options, a missing or unknown name exits 2
// with the list of suites. The suite runs its own executable as a user (or CTest) would.
#include "support/TestSuite.h"

#include <QProcess>

namespace {
struct Ran {
    int exitCode = -1;
    QString out, err;
};

Ran runSelf(const QStringList& args) {
    QProcess p;
    p.start(QCoreApplication::applicationFilePath(), args);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit) return {};
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}
} // namespace

class TestSuiteRegistry : public QObject {
    Q_OBJECT
  private slots:
    void init() {
#ifndef PRUNESCOPE_TEST_GROUPED
        QSKIP("each suite is its own executable (-DPRUNESCOPE_TEST_GROUPS=OFF)");
#endif
    }

    void withoutANameListsTheSuites() {
        const Ran r = runSelf({});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("usage:") && r.err.contains(" test_suite_registry") &&
                     r.err.contains(" test_data_dir"),
                 qPrintable(r.err));
        QVERIFY2(r.err.startsWith("usage:"), qPrintable(r.err)); // no empty line before it
    }

    void anUnknownNameIsRefused() {
        const Ran r = runSelf({"test_no_such_suite"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("no suite named test_no_such_suite"), qPrintable(r.err));
        QVERIFY2(r.err.contains(" test_progress"), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    // The named suite runs alone and gets the options after its name.
    void theNamedSuiteRunsWithItsOptions() {
        const Ran r = runSelf({"test_data_dir", "-functions"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("newNameWinsWithoutWarning()"), qPrintable(r.out));
        QVERIFY2(!r.out.contains("theNamedSuiteRunsWithItsOptions"), qPrintable(r.out));
        const Ran one = runSelf({"test_data_dir", "newNameWinsWithoutWarning"});
        QCOMPARE(one.exitCode, 0);
        QVERIFY2(one.out.contains("TestDataDir") && one.out.contains("Totals: 3 passed"),
                 qPrintable(one.out));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestSuiteRegistry)
#include "test_suite_registry.moc"
