// The command line's options, one group per mode (the help lists them in this order).
#include "app/gui/window/CommandLine.h"

#include <QCommandLineParser>

namespace prunescope::gui {
namespace {

// --screenshot: the explorer window and what it shows.
void addExplorerScreenshotOptions(QCommandLineParser& cl) {
    cl.addOptions({
        {"screenshot",
         "Render the window offscreen to <file> (.png, or .svg for the explorer) and exit.",
         "file"},
        {"sentence",
         "With --screenshot: select sentence <n> (1-based); with --screenshot-frontier: the "
         "overlay's "
         "sentence of the bundled sample.",
         "n", "1"},
        {"typed", "With --screenshot: parse this typed sentence instead.", "text"},
        {"flip", "With --screenshot: click cell <i,k> (repeatable).", "i,k"},
        {"quantity", "Colour quantity: keep, inside, constituents, recall or marginal.", "name",
         "keep"},
        {"colormap", "viridis or cividis.", "name", "viridis"},
        {"presentation-font",
         "Chart, trees and statistics in the presentation font size (View menu)."},
        {"layout",
         "With --screenshot: the explorer layout all, chart, predicted or gold (the tabs above the "
         "views).",
         "name"},
        {"zoom", "With --screenshot: zoom the chart to <z> times its fitted size (1 = fit).", "z"},
        {"binarized-symbols",
         "Cells show the grammar's binarized symbols (@NP|DT_NN) instead of n-ary labels (NP)."},
        {"mask", "Start from this mask: policy, all or gold.", "name", "policy"},
        {"step", "Step-by-step mode, showing the first <m> changed cells.", "m"},
        {"replay",
         "With --screenshot: start Replay CKY (View ▸ Replay CKY) and show it after <m> cells.",
         "m"},
        {"max-rule",
         "The predicted view shows the max-rule-product tree (View ▸ Max-Rule Tree) of the mask "
         "set by the options above."},
        {"hover", "Give keyboard focus to cell <i,k>.", "i,k"},
        {"session",
         "Open this session file (File ▸ Save Session…) instead of the remembered documents; with "
         "--screenshot: open it before the other options apply.",
         "file"},
        {"compare",
         "With --screenshot: show View ▸ Compare Masks with masks <a,b>, each current, policy, "
         "gold or all.",
         "a,b"},
        {"widget",
         "What to capture: window, explorer or heatmap (--screenshot); window or matrix "
         "(--screenshot-dep); window or plot (--screenshot-dep-frontier).",
         "name", "window"},
        {"size", "Window size WxH.", "WxH", "1400x900"},
    });
}

// --export-chart-figure and --export-tree-figure.
void addFigureExportOptions(QCommandLineParser& cl) {
    cl.addOptions({
        {"export-chart-figure",
         "Export the chart heat map alone as a figure to <file> (.svg, .pdf or .png; the "
         "--screenshot options choose sentence, mask, flips, ...) and exit.",
         "file"},
        {"export-tree-figure",
         "Export a parse tree (--tree) alone as a figure to <file> (.svg, .pdf or .png) and exit.",
         "file"},
        {"tree", "With --export-tree-figure: predicted or gold.", "name", "predicted"},
        {"scale",
         "With --export-*-figure: PNG pixels per screen pixel (1, 2 or 3; SVG and PDF are vector).",
         "x", "1"},
        {"caption", "With --export-*-figure: caption the figure with the sentence, policy, lambda, "
                    "F1 and pushes."},
    });
}

// --screenshot-randomized and the cube-pruning explorer.
void addRandomizedAndCubeOptions(QCommandLineParser& cl) {
    cl.addOptions({
        {"screenshot-randomized",
         "Render the randomized-pruning window (sentence --sentence, after --iterations) to "
         "<file>.",
         "file"},
        {"iterations",
         "With --screenshot-randomized: MCMC iterations to run first (default 24); with "
         "--bench-training-stall: LOLS iterations (default 2).",
         "n"},
        {"screenshot-cube",
         "Render the cube-pruning explorer (sentence --sentence) to <file> and exit.", "file"},
        {"cube-model", "With --screenshot-cube: the cube model (default: the bundled one).",
         "file"},
        {"cube-sentences",
         "With --screenshot-cube: the dependency sentences (default: the bundled ones).", "file"},
        {"beam", "With --screenshot-cube: beam size k.", "k"},
        {"update", "With --screenshot-cube: perceptron update (standard, skip, smax or pmax).",
         "name"},
        {"cell", "With --screenshot-cube: select cell <id> of the span chart.", "id"},
        {"apply", "With --screenshot-cube: apply the update <n> times first.", "n", "0"},
        {"tab", "With --screenshot-cube: the tab to show (0, 1 or 2).", "i"},
    });
}

// The dependency view and its frontier window.
void addDependencyOptions(QCommandLineParser& cl) {
    cl.addOptions({
        {"dep",
         "Open the main window in dependency mode on this treebank (.dp, .conll, .conllu or a "
         "directory); with "
         "--screenshot-dep: the treebank to show (default: samples/dep/).",
         "treebank"},
        {"dep-model",
         "Dependency model (dep-train) for --dep or --screenshot-dep (default: "
         "samples/dep/model.json).",
         "file"},
        {"dep-cascade",
         "Vine cascade (vine-train) as the dependency view's pruning stages, for --dep or "
         "--screenshot-dep.",
         "file"},
        {"dep-filter",
         "Arc filter (filter-train) as the dependency view's first stage, for --dep or "
         "--screenshot-dep; "
         "give it twice to load filters A and B (B active, arcs A decides differently outlined).",
         "file"},
        {"screenshot-dep", "Render the dependency view (sentence --sentence) to <file> and exit.",
         "file"},
        {"max-marginal-stage",
         "With --screenshot-dep: prune by the model's first-order max-marginals at this alpha.",
         "alpha"},
        {"arc", "With --screenshot-dep: flip the mask bit of arc <h,m> (repeatable).", "h,m"},
        {"dep-coloring", "With --screenshot-dep: colour arcs by maxmarginal or stage.", "name",
         "maxmarginal"},
        {"screenshot-dep-frontier",
         "Render the dependency frontier window of the --frontier-input files to <file> "
         "(.png or .pdf for the plot alone with --widget plot) and exit.",
         "file"},
        {"frontier-input",
         "With --screenshot-dep-frontier: a dep-frontier, vine-frontier or dep-eval JSON file "
         "(repeatable).",
         "file"},
    });
}

// --benchmark-latency.
void addLatencyBenchmarkOptions(QCommandLineParser& cl) {
    cl.addOptions({
        {"benchmark-latency",
         "Measure click-to-repaint latency on sentences from <treebank> and exit.", "treebank"},
        {"length",
         "With --benchmark-latency: sentence length; with --screenshot and --export-*-figure: show "
         "the "
         "first sentence of exactly <n> words.",
         "n", "40"},
        {"flips", "With --benchmark-latency: number of flips.", "n", "100"},
        {"full-repaint",
         "With --benchmark-latency: end each measurement with a repaint of the whole window "
         "(an upper bound; by default the frame Qt paints next: the posted layout requests and the "
         "update request, which paints the regions the click invalidated)."},
    });
}

// The frontier window's modes (FrontierCommandLine.cpp).
void addFrontierOptions(QCommandLineParser& cl) {
    cl.addOptions({
        {"screenshot-frontier",
         "Write frontier.png, frontier-plot.png/.pdf, regret.png and regret-overlay.png of "
         "the frontier and regret windows to <dir> and exit (scripts/screenshots.sh).",
         "dir"},
        {"frontier",
         "With --screenshot-frontier or --bench-frontier-open: the frontier.json to show (default: "
         "the bundled one).",
         "file"},
        {"run",
         "With --screenshot-frontier or --bench-frontier-open: also show this LOLS run directory "
         "(repeatable).",
         "dir"},
        {"lambda",
         "With --screenshot-frontier: the initial lambda; with --bench-training-stall: the run's "
         "lambda "
         "(default 0.002).",
         "x"},
        {"regret-treebank", "With --screenshot-frontier: the regret view's treebank.", "treebank"},
        {"regret-sentences", "With --screenshot-frontier: the regret view's sentences.", "n", "40"},
        {"bench-frontier-open",
         "Open the frontier window <n> times (the bundled frontier, or --frontier, plus "
         "every --run) and print min/median/max milliseconds to its first paint "
         "(docs/benchmarks.md).",
         "n"},
        {"bench-training-stall",
         "Run a background LOLS run in the frontier window and measure the longest "
         "event-loop stall (docs/benchmarks.md); needs --grammar, --init, --train, --dev."},
        {"grammar", "With --bench-training-stall: grammar file.", "file"},
        {"init", "With --bench-training-stall: initial policy.", "file"},
        {"train", "With --bench-training-stall: training treebank.", "treebank"},
        {"dev", "With --bench-training-stall: dev treebank.", "treebank"},
        {"out", "With --bench-training-stall: run directory (default: a temporary one).", "dir"},
        {"surrogate", "With --bench-training-stall: rcp or rdp.", "name", "rcp"},
        {"minibatch", "With --bench-training-stall: roll-in sentences per iteration.", "n", "50"},
        {"threads", "With --bench-training-stall: trainer threads (default: cores - 1).", "n"},
        {"train-limit", "With --bench-training-stall: first N training sentences (0 = all).", "n",
         "0"},
        {"dev-limit", "With --bench-training-stall: first N dev sentences.", "n", "100"},
        {"control-seconds",
         "With --bench-training-stall: first measure the idle event loop for <s> seconds.", "s",
         "0"},
    });
}

} // namespace

void addCommandLineOptions(QCommandLineParser& cl) {
    cl.setApplicationDescription(
        "PruneScope: explore pruning decisions in chart parsing.\n"
        "Without a mode option the explorer window opens (with FILES). Non-interactive modes (run "
        "them with\n"
        "QT_QPA_PLATFORM=offscreen): --screenshot, --export-chart-figure, --export-tree-figure, "
        "--screenshot-randomized, --screenshot-cube, --screenshot-dep, --screenshot-dep-frontier,\n"
        "--benchmark-latency,"
        "--screenshot-frontier and --bench-training-stall; the options below say which mode they "
        "belong to (docs/user-guide.md).");
    cl.addHelpOption();
    cl.addVersionOption();
    cl.addPositionalArgument(
        "files", "Grammar (.gram), policy (.json), treebank (.mrg) or sentences (.txt) to open");
    addExplorerScreenshotOptions(cl);
    addFigureExportOptions(cl);
    addRandomizedAndCubeOptions(cl);
    addDependencyOptions(cl);
    addLatencyBenchmarkOptions(cl);
    addFrontierOptions(cl);
}

} // namespace prunescope::gui
