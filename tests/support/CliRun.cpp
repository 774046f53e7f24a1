// Runs prunescope-cli for the command-line tests (see CliRun.h).
#include "support/CliRun.h"
#include "support/TestData.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QTest>

namespace prunescope::testdata {

QString cliBinary() {
    return QString::fromStdString(binaryDir()) + "/app/prunescope-cli";
}

CliRun runCli(const QStringList& args, const CliRunOptions& o) {
    QProcess p;
    if (!o.env.isEmpty()) {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const QString& kv : o.env)
            e.insert(kv.section('=', 0, 0), kv.section('=', 1));
        p.setProcessEnvironment(e);
    }
    if (!o.stdoutFile.isEmpty()) p.setStandardOutputFile(o.stdoutFile);
    if (o.launcher.isEmpty())
        p.start(cliBinary(), args);
    else
        p.start(o.launcher.front(), o.launcher.mid(1) + QStringList{cliBinary()} + args);
    CliRun r;
    if (!p.waitForStarted()) {
        r.crashed = true;
        r.err = p.errorString();
        return r;
    }
    if (!o.input.isEmpty()) p.write(o.input);
    p.closeWriteChannel();
    p.waitForFinished(o.timeoutMs);
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.exitCode = r.crashed ? -1 : p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

void expectCliError(const CliRun& r, const QString& prefix, int exitCode) {
    QVERIFY2(!r.crashed, qPrintable("exited by a signal; stderr: " + r.err));
    if (exitCode) QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.exitCode == 1 || r.exitCode == 2,
             qPrintable(QString("exit %1: %2").arg(r.exitCode).arg(r.err)));
    QVERIFY2(r.err.startsWith("error: " + prefix), qPrintable(r.err));
    QVERIFY2(r.err.count('\n') == 1 && r.err.endsWith('\n'), qPrintable("not one line: " + r.err));
}

} // namespace prunescope::testdata
