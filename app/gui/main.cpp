// prunescope: the desktop explorer (issue 6). See docs/user-guide.md.
#include "app/gui/CommandLine.h"
#include "app/gui/CubeExplorerWindow.h"
#include "app/gui/FrontierWindow.h"
#include "app/gui/MainWindow.h"

#include <QApplication>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("PruneScope");
    QApplication::setApplicationName("PruneScope");
    QApplication::setApplicationVersion("0.1.0");
    if (int c = prunescope::gui::runFrontierCommandLineMode(app.arguments()); c >= 0) return c;  // issue 7 modes
    if (int c = prunescope::gui::runCubeCommandLineMode(app.arguments()); c >= 0) return c;      // issue 14
    QStringList files;
    int code = prunescope::gui::runCommandLineMode(app.arguments(), &files);
    if (code >= 0) return code;
    prunescope::gui::MainWindow w;
    for (const QString& f : files) w.openFile(f);
    w.show();
    return app.exec();
}
