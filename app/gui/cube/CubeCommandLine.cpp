// Non-interactive mode of the cube-pruning explorer: an offscreen screenshot for docs/user-guide.md
// (scripts/screenshots.sh). See CubeExplorerWindow.h.
//   prunescope --screenshot-cube FILE.png [--cube-model M] [--cube-sentences S] [--sentence n]
//              [--beam k] [--update standard|skip|smax|pmax] [--cell ID] [--apply N] [--tab 0|1|2]
#include "app/gui/cube/CubeExplorerWindow.h"
#include "app/gui/window/BackgroundTask.h"

#include <QApplication>
#include <QTabWidget>

#include <cstdio>

namespace prunescope::gui {

namespace {
QString option(const QStringList& args, const QString& name, const QString& fallback = {}) {
    const int i = args.indexOf(name);
    return i >= 0 && i + 1 < args.size() ? args[i + 1] : fallback;
}
} // namespace

int runCubeCommandLineMode(const QStringList& args) {
    const QString out = option(args, "--screenshot-cube");
    if (out.isEmpty()) return -1;
    CubeExplorerWindow w(nullptr, false);
    QString err;
    const QString sentences = option(args, "--cube-sentences", defaultCubeSentencesPath());
    const QString model = option(args, "--cube-model", defaultCubeModelPath());
    if (!w.openSentences(sentences, &err) || !w.openModelSync(model, &err))
        return std::fprintf(stderr, "%s\n", qPrintable(err)), 1;
    w.selectSentence(option(args, "--sentence", "1").toInt() - 1);
    if (const QString k = option(args, "--beam"); !k.isEmpty()) w.setBeam(k.toInt());
    if (const QString u = option(args, "--update"); !u.isEmpty())
        w.setStrategy(parseCubeUpdate(u.toStdString()));
    for (int i = 0, n = option(args, "--apply", "0").toInt(); i < n; ++i)
        w.applyUpdate();
    if (const QString c = option(args, "--cell"); !c.isEmpty()) w.selectCell(c.toInt());
    if (const QString t = option(args, "--tab"); !t.isEmpty())
        w.findChild<QTabWidget*>()->setCurrentIndex(t.toInt());
    w.resize(1500, 940);
    w.show();
    processEventsUntil([] { return false; }, 300);
    if (!w.grab().save(out)) return std::fprintf(stderr, "cannot write %s\n", qPrintable(out)), 1;
    std::printf("wrote %s\n", qPrintable(out));
    return 0;
}

} // namespace prunescope::gui
