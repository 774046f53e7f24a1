#include "app/gui/window/CommandLine.h"

#include "app/gui/cube/CubeExplorerWindow.h"
#include "app/gui/explorer/MaskComparisonPanel.h"
#include "app/gui/explorer/ReplayController.h"
#include "app/gui/randomized/RandomizedWindow.h"
#include "app/gui/window/BackgroundTask.h"
#include "app/gui/window/MainWindow.h"
#include "core/util/Spread.h"
#include "widgets/ImageExport.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QHash>
#include <QMouseEvent>
#include <QUndoStack>

#include <algorithm>
#include <cstdio>
#include <random>

namespace prunescope::gui {
namespace {

void settle(int ms = 50) {
    processEventsUntil([] { return false; }, ms);
}

// PRUNESCOPE_TIMING: splits a window paint by widget. Paint events of a window's widgets are sent
// one after another (a parent before its children), so the time from one widget's paint event to
// the next is that widget's own paint (plus the repaint manager's work between them).
class PaintProfile : public QObject {
  public:
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() == QEvent::Paint && o->isWidgetType()) mark(o);
        return false;
    }
    void start() {
        t_.start();
        last_.clear();
    }
    void finish() { mark(nullptr); }
    void report() const {
        std::vector<std::pair<double, QString>> rows;
        for (auto it = total_.begin(); it != total_.end(); ++it)
            rows.emplace_back(it.value(), it.key());
        std::sort(rows.rbegin(), rows.rend());
        for (const auto& [ms, name] : rows) {
            if (ms / frames_ < 0.05) continue;
            std::vector<double> v = perFrame_.value(name);
            v.resize(std::max<std::size_t>(v.size(), frames_),
                     0.0); // frames without this widget's paint
            qInfo("  paint %-50s mean %.2f ms, median %.2f ms per frame", qPrintable(name),
                  ms / frames_, spreadOf(v).median);
        }
    }

  private:
    void mark(QObject* o) {
        const qint64 now = t_.nsecsElapsed();
        if (!last_.isEmpty()) {
            total_[last_] += (now - lastT_) / 1e6;
            frame_[last_] += (now - lastT_) / 1e6;
        }
        if (!o) {
            ++frames_;
            for (auto it = frame_.begin(); it != frame_.end(); ++it)
                perFrame_[it.key()].push_back(it.value());
            frame_.clear();
        }
        last_ = o ? QStringLiteral("%1 %2").arg(QString::fromLatin1(o->metaObject()->className()),
                                                o->objectName())
                  : QString();
        lastT_ = now;
    }
    QElapsedTimer t_;
    QString last_;
    qint64 lastT_ = 0;
    int frames_ = 0;
    QHash<QString, double> total_, frame_;
    QHash<QString, std::vector<double>> perFrame_;
};

// A real mouse press + release at the cell centre, as a user's click.
void clickCell(widgets::ChartHeatMap* h, int i, int k) {
    QPointF pos = h->cellRect(i, k).center();
    QPointF global = h->mapToGlobal(pos);
    QMouseEvent press(QEvent::MouseButtonPress, pos, global, Qt::LeftButton, Qt::LeftButton,
                      Qt::NoModifier);
    QApplication::sendEvent(h, &press);
    QMouseEvent release(QEvent::MouseButtonRelease, pos, global, Qt::LeftButton, Qt::NoButton,
                        Qt::NoModifier);
    QApplication::sendEvent(h, &release);
}

// The explorer as the --screenshot options describe it (files, sentence, quantity, mask, flips,
// ...); false on a file that does not load or a malformed --flip.
bool prepareExplorer(const QCommandLineParser& cl, MainWindow& w) {
    if (cl.isSet("session")) {
        QString err;
        if (!w.openSession(cl.value("session"), &err)) {
            std::fprintf(stderr, "error: %s\n", qPrintable(err));
            return false;
        }
    } else if (!w.loadSampleSync()) {
        return false;
    }
    for (const QString& f : cl.positionalArguments())
        if (!w.openFileSync(f)) return false;
    QStringList size = cl.value("size").split('x');
    if (size.size() == 2) w.resize(size[0].toInt(), size[1].toInt());
    w.show();
    if (cl.isSet("typed"))
        w.parseTypedSentence(cl.value("typed"));
    else if (cl.isSet("sentence"))
        w.selectSentence(cl.value("sentence").toInt() - 1);
    if (!cl.isSet("typed") && !cl.isSet("benchmark-latency") && cl.isSet("length")) {
        int found = -1;
        for (int s = 0; s < w.sentenceCount() && found < 0; ++s)
            if (w.sentenceLength(s) == cl.value("length").toInt()) found = s;
        if (found < 0) {
            std::fprintf(stderr, "error: no sentence of %s words\n",
                         qPrintable(cl.value("length")));
            return false;
        }
        w.selectSentence(found);
    }
    ExplorerPanel* ex = w.explorer();
    QString q = cl.value("quantity");
    if (q == "inside") ex->setQuantity(Quantity::InsideScore);
    if (q == "constituents") ex->setQuantity(Quantity::Constituents);
    if (q == "recall") ex->setQuantity(Quantity::RecallContribution);
    if (q == "marginal") ex->setQuantity(Quantity::SpanMarginal);
    if (cl.value("colormap") == "cividis") ex->setColorMap(widgets::ColorMapKind::Cividis);
    if (cl.isSet("binarized-symbols")) w.showBinarizedSymbolsAction()->setChecked(true);
    if (cl.isSet("presentation-font")) w.presentationFontAction()->setChecked(true);
    const QStringList layouts{"all", "chart", "predicted", "gold"};
    if (cl.isSet("layout") && layouts.contains(cl.value("layout")))
        ex->setExplorerLayout(static_cast<ExplorerLayout>(layouts.indexOf(cl.value("layout"))));
    QString preset = cl.value("mask");
    if (preset == "all") ex->keepAllAction()->trigger();
    if (preset == "gold") ex->keepGoldAction()->trigger();
    if (cl.isSet("step")) ex->setAnimationMode(widgets::AnimationMode::Step);
    settle(100);
    for (const QString& f : cl.values("flip")) {
        QStringList ik = f.split(',');
        if (ik.size() != 2) return false;
        clickCell(ex->heatMap(), ik[0].toInt(), ik[1].toInt());
    }
    if (cl.isSet("step"))
        for (int s = 1; s < cl.value("step").toInt(); ++s)
            ex->heatMap()->stepChanges();
    if (cl.isSet("replay")) { // Replay CKY under the mask set above, after <m> cells
        ex->startReplay();
        if (!ex->replay()->waitUntilReady(600000)) return false;
        ex->replay()->seek(cl.value("replay").toInt());
    }
    if (cl.isSet("max-rule")) { // View ▸ Max-Rule Tree, decoded in the background
        ex->maxRuleTreeAction()->setChecked(true);
        if (!processEventsUntil([ex] { return !ex->maxRuleBusy(); }, 600000)) return false;
    }
    if (cl.isSet("zoom")) ex->chartZoom()->setZoom(cl.value("zoom").toDouble());
    if (cl.isSet("compare")) { // View ▸ Compare Masks with two of its sources
        const QStringList ab = cl.value("compare").split(',');
        const QStringList names{"current", "policy", "gold", "all"};
        if (ab.size() != 2 || !names.contains(ab[0]) || !names.contains(ab[1])) return false;
        w.maskComparison()->show();
        for (int side = 0; side < 2; ++side)
            w.maskComparison()->setSource(side,
                                          static_cast<MaskSourceKind>(names.indexOf(ab[side])));
    }
    if (cl.isSet("hover")) {
        QStringList ik = cl.value("hover").split(',');
        ex->heatMap()->setFocus();
        if (ik.size() == 2) ex->heatMap()->setFocusCell(ik[0].toInt(), ik[1].toInt());
    }
    settle(200);
    return true;
}

int screenshot(const QCommandLineParser& cl) {
    MainWindow w(MainWindowOptions{false, false});
    if (!prepareExplorer(cl, w)) return 2;
    ExplorerPanel* ex = w.explorer();
    QWidget* target = &w;
    if (cl.value("widget") == "heatmap") target = ex->heatMap();
    if (cl.value("widget") == "explorer") target = ex;
    QString out = cl.value("screenshot");
    QString err;
    const bool ok = out.endsWith(".svg") ? ex->exportSvg(out, &err)
                                         : widgets::saveWidgetImage(target, out, &err);
    if (!ok) {
        std::fprintf(stderr, "error: cannot write %s: %s\n", qPrintable(out), qPrintable(err));
        return 1;
    }
    std::printf("%s\n", qPrintable(out));
    return 0;
}

// --export-chart-figure / --export-tree-figure: one view alone as SVG, PDF or PNG (--scale,
// --caption).
int exportFigure(const QCommandLineParser& cl) {
    const bool chart = cl.isSet("export-chart-figure");
    const QString tree = cl.value("tree");
    if (!chart && tree != "predicted" && tree != "gold") {
        std::fprintf(stderr, "error: --tree must be predicted or gold\n");
        return 2;
    }
    bool scaleOk = false;
    const double scale = cl.value("scale").toDouble(&scaleOk);
    if (!scaleOk || scale < 1 || scale > 4) {
        std::fprintf(stderr, "error: --scale must be a number from 1 to 4 (got %s)\n",
                     qPrintable(cl.value("scale")));
        return 2;
    }
    MainWindow w(MainWindowOptions{false, false});
    if (!prepareExplorer(cl, w)) return 2;
    const FigureView v = chart            ? FigureView::Chart
                         : tree == "gold" ? FigureView::GoldTree
                                          : FigureView::PredictedTree;
    const QString out = cl.value(chart ? "export-chart-figure" : "export-tree-figure");
    QString err;
    if (!w.explorer()->exportFigure(v, out, scale, cl.isSet("caption"), &err)) {
        std::fprintf(stderr, "error: %s\n", qPrintable(err));
        return 1;
    }
    std::printf("%s\n", qPrintable(out));
    return 0;
}

int benchmark(const QCommandLineParser& cl) {
    LatencyStats s =
        benchmarkFlipLatency(cl.value("benchmark-latency"), cl.value("length").toInt(),
                             cl.value("flips").toInt(), 2017u, cl.isSet("full-repaint"));
    if (s.flips == 0) {
        std::fprintf(stderr, "no sentences of %s words\n", qPrintable(cl.value("length")));
        return 1;
    }
    std::printf("sentences=%g flips=%d median_ms=%.2f mean_ms=%.2f p90_ms=%.2f max_ms=%.2f\n",
                s.sentences, s.flips, s.median, s.mean, s.p90, s.max);
    return 0;
}

} // namespace

LatencyStats benchmarkFlipLatency(const QString& treebank, int length, int flips, unsigned seed,
                                  bool fullRepaint) {
    LatencyStats out;
    MainWindow w(MainWindowOptions{false, false});
    if (!w.openFileSync(samplesDir() + "/grammar.gram")) return out;
    // The policy is optional: the benchmark starts from the policy mask when there is one.
    LoadResult tb = loadFile(treebank);
    if (!tb.ok()) return out;
    std::vector<int> chosen;
    for (std::size_t s = 0; s < tb.sentences.size(); ++s)
        if (static_cast<int>(tb.sentences[s].words.size()) == length)
            chosen.push_back(static_cast<int>(s));
    if (chosen.empty() || !w.openFileSync(treebank)) return out;
    w.resize(1400, 900);
    w.show();
    settle(100);
    std::mt19937 rng(seed);
    std::vector<double> ms;
    // PRUNESCOPE_TIMING=1: the two parts of each measurement (input handling; the window's paint)
    // and, outside the measurement, the layout requests the click left for the event loop.
    const bool timing = qEnvironmentVariableIsSet("PRUNESCOPE_TIMING");
    std::vector<double> clickMs, paintMs, layoutMs, layerCells;
    PaintProfile profile;
    if (timing) qApp->installEventFilter(&profile);
    int perSentence = std::max(1, flips / static_cast<int>(chosen.size()));
    for (int s : chosen) {
        if (static_cast<int>(ms.size()) >= flips) break;
        w.selectSentence(s);
        w.explorer()->setAnimationMode(widgets::AnimationMode::Instant);
        settle(20);
        ++out.sentences;
        for (int f = 0; f < perSentence && static_cast<int>(ms.size()) < flips; ++f) {
            int width = std::uniform_int_distribution<int>(2, length - 1)(rng);
            int i = std::uniform_int_distribution<int>(0, length - width)(rng);
            QElapsedTimer t;
            t.start();
            clickCell(w.explorer()->heatMap(), i, i + width);
            const qint64 clicked = t.nsecsElapsed();
            if (timing) profile.start();
            // The first frame showing the result: what the event loop does next after the click,
            // i.e. the posted events (layout requests, then the low-priority update request that
            // paints every region an update() marked); or, as an upper bound, a synchronous paint
            // of the whole window.
            if (fullRepaint)
                w.repaint();
            else
                QCoreApplication::sendPostedEvents();
            ms.push_back(t.nsecsElapsed() / 1e6);
            if (timing) {
                profile.finish();
                layerCells.push_back(w.explorer()->heatMap()->lastLayerRepaintCells());
                clickMs.push_back(clicked / 1e6);
                paintMs.push_back(ms.back() - clicked / 1e6);
                t.restart();
                QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
                layoutMs.push_back(t.nsecsElapsed() / 1e6);
            }
            QApplication::processEvents();
        }
    }
    if (timing && !clickMs.empty()) {
        auto median = [](std::vector<double> v) { return spreadOf(std::move(v)).median; };
        auto p90 = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return v[std::min(v.size() - 1, v.size() * 9 / 10)];
        };
        qInfo("phases (median ms): click %.2f, paint %.2f; after the frame: layout requests %.2f",
              median(clickMs), median(paintMs), median(layoutMs));
        qInfo("phases (p90 ms): click %.2f, paint %.2f", p90(clickMs), p90(paintMs));
        qInfo("heat-map cells repainted in its layer (median): %.0f", median(layerCells));
        profile.report();
    }
    std::sort(ms.begin(), ms.end());
    out.flips = static_cast<int>(ms.size());
    if (ms.empty()) return out;
    out.median = spreadOf(ms).median;
    out.p90 = ms[std::min(ms.size() - 1, ms.size() * 9 / 10)];
    out.max = ms.back();
    for (double x : ms)
        out.mean += x / ms.size();
    return out;
}

int runCommandLineMode(const QStringList& args, QStringList* files) {
    QCommandLineParser cl;
    addCommandLineOptions(cl);
    cl.process(args);
    if (cl.isSet("screenshot")) return screenshot(cl);
    if (cl.isSet("export-chart-figure") || cl.isSet("export-tree-figure")) return exportFigure(cl);
    if (cl.isSet("screenshot-randomized"))
        return randomizedScreenshot(cl.value("screenshot-randomized"), cl.value("sentence").toInt(),
                                    cl.isSet("iterations") ? cl.value("iterations").toInt() : 24,
                                    cl.isSet("size") ? cl.value("size") : "1350x820");
    if (cl.isSet("screenshot-cube")) return runCubeCommandLineMode(args);
    if (cl.isSet("screenshot-dep")) return runDepScreenshot(cl);
    if (cl.isSet("screenshot-dep-frontier")) return runDepFrontierScreenshot(cl);
    if (cl.isSet("benchmark-latency")) return benchmark(cl);
    if (cl.isSet("screenshot-frontier")) return runFrontierScreenshots(cl);
    if (cl.isSet("bench-training-stall")) return runTrainingStallBenchmark(cl);
    if (cl.isSet("bench-frontier-open")) return runFrontierOpenBenchmark(cl);
    if (files) *files = cl.positionalArguments();
    return -1;
}

} // namespace prunescope::gui
