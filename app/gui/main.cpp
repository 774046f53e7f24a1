// prunescope: the desktop explorer and its frontier/training windows. See docs/user-guide.md;
// `prunescope --help` lists the command line (app/gui/window/CommandLine.cpp).
#include "PruneScopeVersion.h"
#include "app/gui/window/CommandLine.h"
#include "app/gui/window/MainWindow.h"
#include "core/util/VectorState.h"

#include <QApplication>
#include <QCommandLineParser>

namespace {
// QGuiApplication takes "-session ID" / "--session ID" for X11 session management and removes it
// from the arguments: our --session FILE is taken out of argv before QApplication sees it.
QStringList takeSessionOption(int& argc, char** argv) {
    QStringList taken;
    int out = 1;
    for (int i = 1; i < argc; ++i) {
        const QString a = QString::fromLocal8Bit(argv[i]);
        if ((a == "--session" || a == "-session") && i + 1 < argc) {
            taken << "--session" << QString::fromLocal8Bit(argv[++i]);
        } else if (a.startsWith("--session=")) {
            taken << "--session" << a.mid(10);
        } else {
            argv[out++] = argv[i];
        }
    }
    argc = out;
    argv[argc] = nullptr;
    return taken;
}

bool asksHelpOrVersion(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const QString a = QString::fromLocal8Bit(argv[i]);
        if (a == "--") return false;
        if (a == "-h" || a == "--help" || a == "-?" || a == "--help-all" || a == "-v" ||
            a == "--version")
            return true;
    }
    return false;
}

void nameApplication() {
    QCoreApplication::setOrganizationName("PruneScope");
    QCoreApplication::setApplicationName("PruneScope");
    QCoreApplication::setApplicationVersion(PRUNESCOPE_VERSION); // CMake's project version
}
} // namespace

int main(int argc, char** argv) {
    const QStringList session = takeSessionOption(argc, argv);
    if (asksHelpOrVersion(argc, argv)) {
        // --help and --version need no display (issue 42): a QCoreApplication loads no platform
        // plugin; QCommandLineParser::process prints the text and exits 0.
        QCoreApplication core(argc, argv);
        nameApplication();
        QCommandLineParser cl;
        prunescope::gui::addCommandLineOptions(cl);
        cl.process(core.arguments());
        return 0;
    }
    QApplication app(argc, argv);
    prunescope::clearUpperVectorState(); // the constructor leaves it dirty on some CPUs
                                         // (core/util/VectorState.h)
    nameApplication();
    QStringList files;
    const QStringList args = app.arguments() + session;
    int code = prunescope::gui::runCommandLineMode(args, &files);
    if (code >= 0) return code;
    QCommandLineParser cl; // --dep TREEBANK [--dep-model MODEL]: start in dependency mode
    prunescope::gui::addCommandLineOptions(cl);
    cl.parse(args);
    // --session FILE: that session instead of the sample or the remembered documents.
    prunescope::gui::MainWindowOptions opt;
    opt.loadSample = !cl.isSet("session");
    prunescope::gui::MainWindow w(opt);
    if (cl.isSet("session"))
        w.openSession(cl.value("session")); // an error is shown in a dialog; the window stays
    for (const QString& f : files)
        w.openFile(f);
    prunescope::gui::startInDependencyMode(w, cl);
    w.show();
    return app.exec();
}
