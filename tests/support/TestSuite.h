#pragma once
// The suites' entry point. A suite ends with PRUNESCOPE_QTEST_MAIN(TestX) (or its GUILESS/APPLESS
// forms), which are Qt's QTEST_MAIN & co. when the suite is its own executable. When a folder's
// suites share one executable (PRUNESCOPE_TEST_GROUPS, tests/CMakeLists.txt), the macro instead
// registers the suite under its file's name, and tests/suite_main.cpp runs the one named first on
// the command line: `suites_lols test_regret -v2` does what `test_regret -v2` did.
#include <QtTest/QtTest>

namespace prunescope::testing {
using SuiteBody = int (*)(int& argc, char** argv);
// Records the suite of source file `file` (its name is the file's, without folder or extension).
bool registerSuite(const char* file, SuiteBody body);
// Runs argv[1]'s suite with argv[0] and argv[2..] (the shared main); lists them all without one.
int runRegisteredSuite(int argc, char** argv);
} // namespace prunescope::testing

#ifdef PRUNESCOPE_TEST_GROUPED
// Qt's QTEST_MAIN_WRAPPER (qtest.h), with the body in a registered function instead of main().
#define PRUNESCOPE_SUITE_WRAPPER(TestObject, ...)                                                  \
    [[maybe_unused]] static const bool prunescopeSuite_##TestObject =                              \
        ::prunescope::testing::registerSuite(__FILE__, [](int& argc, char** argv) -> int {         \
            QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                     \
            __VA_ARGS__                                                                            \
            TestObject tc;                                                                         \
            QTEST_SET_MAIN_SOURCE_PATH                                                             \
            return QTest::qExec(&tc, argc, argv);                                                  \
        });
#define PRUNESCOPE_QTEST_MAIN(TestObject) PRUNESCOPE_SUITE_WRAPPER(TestObject, QTEST_MAIN_SETUP())
#define PRUNESCOPE_QTEST_GUILESS_MAIN(TestObject)                                                  \
    PRUNESCOPE_SUITE_WRAPPER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
#define PRUNESCOPE_QTEST_APPLESS_MAIN(TestObject) PRUNESCOPE_SUITE_WRAPPER(TestObject)
#else
#define PRUNESCOPE_QTEST_MAIN(TestObject) QTEST_MAIN(TestObject)
#define PRUNESCOPE_QTEST_GUILESS_MAIN(TestObject) QTEST_GUILESS_MAIN(TestObject)
#define PRUNESCOPE_QTEST_APPLESS_MAIN(TestObject) QTEST_APPLESS_MAIN(TestObject)
#endif
