// Non-interactive modes of the frontier window: screenshots for docs/user-guide.md and the
// event-loop stall benchmark of a background LOLS run (Vieira & Eisner 2017, sec. 4) for
// docs/benchmarks.md. Options: app/gui/window/CommandLine.cpp (`prunescope --help`).
#include "app/gui/explorer/RegretWindow.h"
#include "app/gui/frontier/FrontierWindow.h"
#include "app/gui/frontier/TrainingPanel.h"
#include "app/gui/window/BackgroundTask.h"
#include "app/gui/window/CommandLine.h"
#include "app/gui/window/MainWindow.h"
#include "core/util/Spread.h"
#include "widgets/ImageExport.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <numeric>

namespace prunescope::gui {

namespace {

void settle(int ms) {
    processEventsUntil([] { return false; }, ms);
}

} // namespace

int runFrontierScreenshots(const QCommandLineParser& cl) {
    const QString dir = cl.value("screenshot-frontier");
    QDir().mkpath(dir);
    FrontierWindow w(nullptr, true);
    if (const QString f = cl.value("frontier"); !f.isEmpty()) {
        QString err;
        if (!w.openFrontier(f, &err)) return std::fprintf(stderr, "%s\n", qPrintable(err)), 1;
    }
    for (const QString& run : cl.values("run")) {
        QString err;
        if (!w.openRunDirectory(run, &err)) return std::fprintf(stderr, "%s\n", qPrintable(err)), 1;
    }
    if (w.view().points.empty()) {
        std::fprintf(
            stderr,
            "no policies to show: samples/policies/frontier.json is missing (use --frontier)\n");
        return 1;
    }
    if (const QString l = cl.value("lambda"); !l.isEmpty()) w.setLambda(l.toDouble());
    w.resize(1400, 900);
    w.show();
    settle(300);
    // Every image is written atomically and a failure is reported (ImageExport.h).
    auto saved = [](bool good, const QString& path, const QString& err) {
        if (!good)
            std::fprintf(stderr, "error: cannot write %s: %s\n", qPrintable(path), qPrintable(err));
        return good;
    };
    auto saveShot = [&](QWidget* widget, const QString& path) {
        QString err;
        return saved(widgets::saveWidgetImage(widget, path, &err), path, err);
    };
    auto savePlotImage = [&](const QString& path) {
        QString err;
        return saved(w.plot()->saveImage(path, 1000, 660, &err), path, err);
    };
    bool ok = saveShot(&w, dir + "/frontier.png");
    ok = savePlotImage(dir + "/frontier-plot.png") && ok;
    ok = savePlotImage(dir + "/frontier-plot.pdf") && ok;

    // Regret view of the selected policy on the bundled sentences (or PRUNESCOPE_DATA's train
    // split).
    RegretWindow* r = w.regretWindow();
    RegretRequest q = r->request();
    if (const QString tb = cl.value("regret-treebank"); !tb.isEmpty()) q.treebank = tb;
    q.sentences = cl.value("regret-sentences").toInt();
    r->setRequest(q);
    r->resize(1200, 680);
    r->show();
    QEventLoop loop;
    QObject::connect(r, &RegretWindow::finished, &loop, [&](bool good) {
        if (!good) std::fprintf(stderr, "regret: the computation failed\n");
        ok = ok && good;
        loop.quit();
    });
    r->compute();
    loop.exec();
    settle(200);
    ok = saveShot(r, dir + "/regret.png") && ok;

    // The per-span overlay on the explorer (the bundled sample's sentence with the selected
    // policy).
    MainWindowOptions mo;
    mo.useSettings = false;
    mo.loadSample = false;
    MainWindow mw(mo);
    if (q.policy.isEmpty()) {
        std::fprintf(stderr, "overlay: no policy selected in the frontier\n");
        ok = false;
    } else if (!mw.loadSampleSync() || !mw.openFileSync(q.policy)) {
        std::fprintf(stderr, "overlay: could not open the sample or %s\n", qPrintable(q.policy));
        ok = false;
    } else {
        const int s = cl.value("sentence").toInt() - 1; // 1-based, as with --screenshot
        mw.selectSentence(std::clamp(s, 0, std::max(0, mw.sentenceCount() - 1)));
        mw.resize(1400, 900);
        mw.show();
        r->setExplorer(mw.explorer());
        QString err;
        if (r->overlayCurrentSentence(&err)) {
            settle(300);
            ok = saveShot(&mw, dir + "/regret-overlay.png") && ok;
        } else {
            std::fprintf(stderr, "overlay: %s\n", qPrintable(err));
            ok = false;
        }
    }
    std::printf("wrote %s/{frontier,frontier-plot,regret,regret-overlay}.png\n", qPrintable(dir));
    return ok ? 0 : 1;
}

int runFrontierOpenBenchmark(const QCommandLineParser& cl) {
    // Time from constructing the window to its first paint with every --frontier and --run shown,
    // as a user opening it from the View menu sees it (docs/benchmarks.md).
    const int n = std::max(1, cl.value("bench-frontier-open").toInt());
    std::vector<double> ms;
    std::size_t records = 0;
    for (int i = 0; i < n; ++i) {
        QElapsedTimer t;
        t.start();
        FrontierWindow w(nullptr, !cl.isSet("frontier"));
        QString err;
        if (const QString f = cl.value("frontier"); !f.isEmpty() && !w.openFrontier(f, &err))
            return std::fprintf(stderr, "%s\n", qPrintable(err)), 1;
        for (const QString& run : cl.values("run"))
            if (!w.openRunDirectory(run, &err))
                return std::fprintf(stderr, "%s\n", qPrintable(err)), 1;
        w.resize(1280, 860);
        w.show();
        QApplication::processEvents(); // lays out and paints the window
        w.repaint();
        ms.push_back(t.nsecsElapsed() / 1e6);
        records = w.model().records().size();
        settle(50);
    }
    const Spread s = spreadOf(ms);
    std::printf(
        "frontier window open (%zu policies): %d runs, min %.1f ms, median %.1f ms, max %.1f ms\n",
        records, n, s.min, s.median, s.max);
    return 0;
}

namespace {

// --grammar, --init, --train and --dev of --bench-training-stall; false (and says so) if one is
// missing.
bool readStallRunFiles(const QCommandLineParser& cl, LolsRunSpec& s) {
    s.grammar = cl.value("grammar").toStdString();
    s.init = cl.value("init").toStdString();
    s.train = cl.value("train").toStdString();
    s.dev = cl.value("dev").toStdString();
    if (s.grammar.empty() || s.init.empty() || s.train.empty() || s.dev.empty()) {
        std::fprintf(
            stderr, "--bench-training-stall needs --grammar G --init POLICY --train TB --dev TB\n");
        return false;
    }
    return true;
}

// The run's LOLS settings (--surrogate, --lambda, --iterations, --minibatch, --threads, limits).
void readStallRunSettings(const QCommandLineParser& cl, LolsRunSpec& s) {
    s.lols.surrogate = surrogateFromName(cl.value("surrogate").toStdString());
    s.lols.lambda = cl.isSet("lambda") ? cl.value("lambda").toDouble() : 0.002;
    s.lols.iterations = cl.isSet("iterations") ? cl.value("iterations").toInt() : 2;
    s.lols.minibatch = cl.value("minibatch").toInt();
    s.lols.threads = cl.isSet("threads") ? cl.value("threads").toInt()
                                         : std::max(1, QThread::idealThreadCount() - 1);
    s.trainLimit = cl.value("train-limit").toInt();
    s.devLimit = cl.value("dev-limit").toInt();
}

// Control: the tick timer with no training for `control` seconds; prints its longest gap and
// clears the gaps it collected.
void measureControlStalls(int control, QTimer& tick, QElapsedTimer& clock,
                          std::vector<double>& gaps) {
    double controlMax = 0;
    tick.start();
    clock.restart();
    processEventsUntil([] { return false; }, control * 1000);
    tick.stop();
    for (double g : gaps)
        controlMax = std::max(controlMax, g);
    std::printf("control (no training, %d s): %zu ticks, max gap %.1f ms\n", control, gaps.size(),
                controlMax);
    gaps.clear();
}

void printLongestStalls(const std::vector<double>& gaps, const std::vector<double>& gapEnds,
                        const std::vector<double>& commitTimes) {
    // Where the three longest stalls happened, beside the commits (to tell GUI work from noise).
    std::vector<std::size_t> order(gaps.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::partial_sort(order.begin(), order.begin() + std::min<std::size_t>(3, order.size()),
                      order.end(), [&](std::size_t a, std::size_t b) { return gaps[a] > gaps[b]; });
    std::string where;
    for (std::size_t k = 0; k < std::min<std::size_t>(3, order.size()); ++k)
        if (order[k] < gapEnds.size())
            where += QString(" %1 ms ending at %2 s;")
                         .arg(gaps[order[k]], 0, 'f', 1)
                         .arg(gapEnds[order[k]], 0, 'f', 2)
                         .toStdString();
    std::string commits;
    for (double c : commitTimes)
        commits += QString(" %1").arg(c, 0, 'f', 2).toStdString();
    std::printf("longest stalls:%s commits at (s):%s\n", where.c_str(), commits.c_str());
}

void printStallSummary(const LolsRunSpec& s, int points, double seconds,
                       const std::vector<double>& gaps, double worstCommit) {
    std::vector<double> sorted = gaps;
    std::sort(sorted.begin(), sorted.end());
    auto pct = [&](double q) {
        return sorted.empty() ? 0.0 : sorted[static_cast<std::size_t>(q * (sorted.size() - 1))];
    };
    std::printf("training: %d iterations committed in %.1f s, %d trainer threads, %s, minibatch "
                "%d, dev %d\n",
                points, seconds, s.lols.threads, surrogateName(s.lols.surrogate), s.lols.minibatch,
                s.devLimit);
    std::printf(
        "event loop: %zu ticks of a 5 ms timer; gap median %.1f ms, p99 %.1f ms, max %.1f ms\n",
        gaps.size(), pct(0.5), pct(0.99), sorted.empty() ? 0.0 : sorted.back());
    std::printf("slowest per-commit GUI work (model update, view, plot data; the repaint is a "
                "later event): %.1f ms\n",
                worstCommit);
}

} // namespace

int runTrainingStallBenchmark(const QCommandLineParser& cl) {
    LolsJobSpec job;
    LolsRunSpec& s = job.run;
    if (!readStallRunFiles(cl, s)) return 2;
    QTemporaryDir tmp;
    job.out = cl.isSet("out") ? cl.value("out") : tmp.filePath("run");
    readStallRunSettings(cl, s);
    FrontierWindow w(nullptr, true);
    w.resize(1280, 860);
    w.show();
    settle(200);
    // A 5 ms timer; the longest gap between its timeouts is the longest the event loop was blocked.
    std::vector<double> gaps, gapEnds, commitTimes; // gapEnds: seconds since the run started
    QElapsedTimer clock, total;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(5);
    clock.start();
    QObject::connect(&tick, &QTimer::timeout, [&] {
        gaps.push_back(clock.nsecsElapsed() / 1e6);
        if (total.isValid()) gapEnds.push_back(total.nsecsElapsed() / 1e9);
        clock.restart();
    });
    // Control: the same timer with no training, for the machine's own scheduling noise.
    const int control = cl.value("control-seconds").toInt();
    if (control > 0) measureControlStalls(control, tick, clock, gaps);
    // The GUI thread's own work per committed iteration (model update, view, plot data), as the
    // window measures it in its handler (this slot runs after the window's: connected later).
    double worstCommit = 0;
    QObject::connect(w.queue(), &TrainingQueue::iterationCommitted, [&] {
        worstCommit = std::max(worstCommit, w.lastIterationMs());
        commitTimes.push_back(total.nsecsElapsed() / 1e9);
    });
    int points = 0;
    QObject::connect(w.queue(), &TrainingQueue::iterationCommitted, [&] { ++points; });
    total.start();
    const int id = w.startLols(job);
    tick.start();
    clock.restart();
    processEventsUntil([&] { return !w.queue()->busy(); }, std::numeric_limits<int>::max());
    tick.stop();
    const double seconds = total.nsecsElapsed() / 1e9;
    const TrainingJob* j = w.queue()->job(id);
    if (!j || j->state != JobState::Finished) {
        std::fprintf(stderr, "run did not finish: %s\n", j ? qPrintable(j->error) : "?");
        return 1;
    }
    printLongestStalls(gaps, gapEnds, commitTimes);
    printStallSummary(s, points, seconds, gaps, worstCommit);
    return 0;
}

} // namespace prunescope::gui
