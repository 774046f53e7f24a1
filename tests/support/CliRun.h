#pragma once
// Runs the built prunescope-cli as a user would (the tests/cli suites and every suite that checks
// the command line): exit code, whether it died by a signal, stdout, stderr.
#include <QByteArray>
#include <QString>
#include <QStringList>

namespace prunescope::testdata {

struct CliRun {
    int exitCode = -1;    // -1 if the process crashed
    bool crashed = false; // ended by a signal (or never started)
    QString out, err;
};

struct CliRunOptions {
    QByteArray input;     // written to stdin, which is then closed
    QString stdoutFile;   // stdout goes to this file instead of CliRun::out
    QStringList env;      // "NAME=value" added to this process's environment
    QStringList launcher; // e.g. {mpirun, -n, 2}: runs launcher + prunescope-cli + args
    int timeoutMs = 600000;
};

QString cliBinary(); // <build>/app/prunescope-cli
CliRun runCli(const QStringList& args, const CliRunOptions& options = {});

// How the command line reports bad input: no signal, exit status 1 or 2 (exactly exitCode if
// given), and stderr one line starting with "error: " + prefix. Fails the calling test (QVERIFY)
// otherwise.
void expectCliError(const CliRun& r, const QString& prefix, int exitCode = 0);

} // namespace prunescope::testdata
