// Runs prunescope-cli for the command-line tests (see CliRun.h).
#include "support/CliRun.h"
#include "support/TestData.h"

#include <QProcess>

namespace prunescope::testdata {

QString cliBinary() { return QString::fromStdString(binaryDir()) + "/app/prunescope-cli"; }

CliRun runCli(const QStringList& args) {
    QProcess p;
    p.start(cliBinary(), args);
    p.waitForStarted();
    p.closeWriteChannel();
    p.waitForFinished(600000);
    CliRun r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace prunescope::testdata
