// Tests for core/util/DataDir: PRUNESCOPE_DATA_DIR names the data folder; the old name
// PRUNESCOPE_DATA is accepted only when the new one is unset, with a deprecation warning.
#include "core/util/DataDir.h"

#include "support/TestSuite.h"

#include <cstdlib>
#include <sstream>

using namespace prunescope;

class TestDataDir : public QObject {
    Q_OBJECT
  private slots:
    void cleanup() {
        qunsetenv("PRUNESCOPE_DATA_DIR");
        qunsetenv("PRUNESCOPE_DATA");
    }

    void newNameWinsWithoutWarning() {
        qputenv("PRUNESCOPE_DATA_DIR", "/new/data");
        qputenv("PRUNESCOPE_DATA", "/old/data");
        std::ostringstream warn;
        QCOMPARE(dataDirFromEnvironment(&warn), std::string("/new/data"));
        QVERIFY(warn.str().empty());
    }

    void oldNameAcceptedWithDeprecationWarning() {
        qputenv("PRUNESCOPE_DATA", "/old/data");
        std::ostringstream warn;
        QCOMPARE(dataDirFromEnvironment(&warn), std::string("/old/data"));
        QVERIFY(warn.str().find("PRUNESCOPE_DATA is deprecated") != std::string::npos);
        QVERIFY(warn.str().find("PRUNESCOPE_DATA_DIR") != std::string::npos);
    }

    void emptyValuesCountAsUnset() {
        qputenv("PRUNESCOPE_DATA_DIR", "");
        std::ostringstream warn;
        QCOMPARE(dataDirFromEnvironment(&warn), std::string());
        qputenv("PRUNESCOPE_DATA", "/old/data");
        QCOMPARE(dataDirFromEnvironment(&warn), std::string("/old/data"));
    }
};

PRUNESCOPE_QTEST_MAIN(TestDataDir)
#include "test_data_dir.moc"
