// The dependency view from the command line (DepExplorerPanel.h):
//   prunescope --dep TREEBANK [--dep-model MODEL] [--dep-cascade CASCADE] [--dep-filter FILTER ...]
//                                                                           dependency mode
//   prunescope --screenshot-dep FILE.png [--dep TREEBANK] [--dep-model MODEL] [--sentence n]
//              [--max-marginal-stage ALPHA] [--arc h,m ...] [--dep-coloring maxmarginal|stage]
//              [--size WxH]
// renders it offscreen for docs/user-guide.md (scripts/screenshots.sh);
//   prunescope --screenshot-dep-frontier FILE.png --frontier-input JSON ... [--widget window|plot]
//   [--size WxH]
// renders the dependency frontier window (DepFrontierWindow.h) of those files.
#include "app/gui/dep/DepExplorerPanel.h"
#include "app/gui/dep/DepFrontierWindow.h"
#include "app/gui/window/CommandLine.h"
#include "app/gui/window/MainWindow.h"
#include "widgets/ArcMatrixView.h"
#include "widgets/DepFrontierPlot.h"
#include "widgets/ImageExport.h"

#include <QCommandLineParser>

#include <cstdio>
#include <memory>

namespace prunescope::gui {

namespace {
bool openDepFilters(DepExplorerPanel* p, const QCommandLineParser& cl, QString* err) {
    for (const QString& f : cl.values("dep-filter"))
        if (!p->openFilter(f, err)) return false;
    return true;
}

// Opens the command line's treebank and model (the bundled sample's unless given).
bool openDepDocuments(DepExplorerPanel* p, const QCommandLineParser& cl, QString* err) {
    const QString tb = cl.isSet("dep") ? cl.value("dep") : defaultDepSentencesPath();
    const QString model = cl.isSet("dep-model") ? cl.value("dep-model") : defaultDepModelPath();
    if (tb.isEmpty() || model.isEmpty()) {
        *err = "no dependency treebank or model (give --dep and --dep-model; the bundled "
               "samples/dep/ is missing)";
        return false;
    }
    return p->openSentences(tb, err) && p->openModel(model, err) &&
           (!cl.isSet("dep-cascade") || p->openCascade(cl.value("dep-cascade"), err)) &&
           openDepFilters(p, cl, err);
}
} // namespace

bool startInDependencyMode(MainWindow& w, const QCommandLineParser& cl) {
    if (!cl.isSet("dep") && !cl.isSet("dep-model") && !cl.isSet("dep-cascade") &&
        !cl.isSet("dep-filter"))
        return false;
    w.setMode(MainWindow::Mode::Dependency);
    DepExplorerPanel* p = w.depExplorer();
    if (cl.isSet("dep")) p->openSentences(cl.value("dep"));
    if (cl.isSet("dep-model")) p->openModel(cl.value("dep-model"));
    if (cl.isSet("dep-cascade")) p->openCascade(cl.value("dep-cascade"));
    for (const QString& f : cl.values("dep-filter"))
        p->openFilter(f);
    return true;
}

int runDepScreenshot(const QCommandLineParser& cl) {
    MainWindow w(MainWindowOptions{false, false});
    w.setMode(MainWindow::Mode::Dependency);
    DepExplorerPanel* p = w.depExplorer();
    QString err;
    if (!openDepDocuments(p, cl, &err))
        return std::fprintf(stderr, "error: %s\n", qPrintable(err)), 2;
    const QStringList size = cl.value("size").split('x');
    if (size.size() == 2) w.resize(size[0].toInt(), size[1].toInt());
    w.show();
    p->selectSentence(cl.value("sentence").toInt() - 1);
    if (cl.isSet("max-marginal-stage"))
        p->setModelMaxMarginalStage(true, cl.value("max-marginal-stage").toDouble());
    if (cl.value("dep-coloring") == "stage")
        p->setColoring(static_cast<int>(widgets::ArcColoring::Stage));
    if (!p->waitIdle()) return std::fprintf(stderr, "error: the parse did not finish\n"), 1;
    for (const QString& a : cl.values("arc")) {
        const QStringList hm = a.split(',');
        if (hm.size() != 2)
            return std::fprintf(stderr, "error: --arc wants h,m (got %s)\n", qPrintable(a)), 2;
        p->flipArc(hm[0].toInt(), hm[1].toInt());
        if (!p->waitIdle()) return std::fprintf(stderr, "error: the parse did not finish\n"), 1;
    }
    if (cl.isSet("hover")) {
        const QStringList hm = cl.value("hover").split(',');
        p->matrix()->setFocus();
        if (hm.size() == 2) p->matrix()->setFocusCell(hm[0].toInt(), hm[1].toInt());
    }
    processEventsUntil([] { return false; }, 200);
    const QString out = cl.value("screenshot-dep");
    QWidget* target = cl.value("widget") == "matrix" ? static_cast<QWidget*>(p->matrix()) : &w;
    if (!widgets::saveWidgetImage(target, out, &err))
        return std::fprintf(stderr, "error: cannot write %s: %s\n", qPrintable(out),
                            qPrintable(err)),
               1;
    std::printf("%s\n", qPrintable(out));
    return 0;
}

int runDepFrontierScreenshot(const QCommandLineParser& cl) {
    QString err;
    DepFrontierWindow* w = DepFrontierWindow::openFiles(nullptr, cl.values("frontier-input"), &err);
    if (!w) return std::fprintf(stderr, "error: %s\n", qPrintable(err)), 2;
    std::unique_ptr<DepFrontierWindow> owner(w);
    const QStringList size = (cl.isSet("size") ? cl.value("size") : QString("1100x760")).split('x');
    if (size.size() == 2) w->resize(size[0].toInt(), size[1].toInt());
    processEventsUntil([] { return false; }, 200);
    const QString out = cl.value("screenshot-dep-frontier");
    const bool ok = cl.value("widget") == "plot" ? w->plot()->saveImage(out, 0, 0, &err)
                                                 : widgets::saveWidgetImage(w, out, &err);
    if (!ok)
        return std::fprintf(stderr, "error: cannot write %s: %s\n", qPrintable(out),
                            qPrintable(err)),
               1;
    std::printf("%s: %d series, %d points\n%s\n", qPrintable(out), w->plot()->seriesCount(),
                w->plot()->pointCount(), qPrintable(w->modelNote()));
    return 0;
}

} // namespace prunescope::gui
