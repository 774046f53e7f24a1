#pragma once
// Runs the built prunescope-cli as a user would (the tests/cli suites): exit code, stdout, stderr.
#include <QString>
#include <QStringList>

namespace prunescope::testdata {

struct CliRun {
    int exitCode = -1;  // -1 if the process crashed
    QString out, err;
};

QString cliBinary();                       // <build>/app/prunescope-cli
CliRun runCli(const QStringList& args);   // waits up to 10 minutes

} // namespace prunescope::testdata
