// prunescope: the desktop explorer and its frontier/training windows. See docs/user-guide.md;
// `prunescope --help` lists the command line (app/gui/CommandLine.cpp).
#include "app/gui/CommandLine.h"
#include "app/gui/MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("PruneScope");
    QApplication::setApplicationName("PruneScope");
    QApplication::setApplicationVersion("0.1.0");
    QStringList files;
    int code = prunescope::gui::runCommandLineMode(app.arguments(), &files);
    if (code >= 0) return code;
    prunescope::gui::MainWindow w;
    for (const QString& f : files) w.openFile(f);
    QCommandLineParser cl;  // --dep TREEBANK [--dep-model MODEL]: start in dependency mode
    prunescope::gui::addCommandLineOptions(cl);
    cl.parse(app.arguments());
    prunescope::gui::startInDependencyMode(w, cl);
    w.show();
    return app.exec();
}
