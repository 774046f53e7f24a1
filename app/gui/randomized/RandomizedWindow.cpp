// The randomized-pruning animation window (see RandomizedWindow.h).
#include "app/gui/randomized/RandomizedWindow.h"

#include "app/gui/window/BackgroundTask.h"
#include "app/gui/window/MainWindow.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace prunescope::gui {

// The sentence title and the button that takes the explorer's sentence.
QHBoxLayout* RandomizedWindow::buildTitleRow() {
    auto* top = new QHBoxLayout;
    title_ = new QLabel(tr("No sentence"));
    title_->setWordWrap(true);
    useExplorerBtn_ = new QPushButton(tr("Use Explorer Sentence"));
    useExplorerBtn_->setToolTip(tr("Start over on the sentence the explorer shows"));
    connect(useExplorerBtn_, &QPushButton::clicked, this, [this] {
        if (!provider_) return;
        if (auto s = provider_()) setSentence(*s, QString());
    });
    top->addWidget(title_, 1);
    top->addWidget(useExplorerBtn_);
    return top;
}

// Play, Step, Restart, the speed and the chain's settings (seed, selection, M′ threshold, |s|).
QHBoxLayout* RandomizedWindow::buildChainControls() {
    auto* controls = new QHBoxLayout;
    playBtn_ = new QPushButton(tr("Play"));
    playBtn_->setObjectName("playButton");
    playBtn_->setShortcut(QKeySequence(Qt::Key_Space));
    playBtn_->setToolTip(tr("Run iterations one after the other (Space)"));
    connect(playBtn_, &QPushButton::clicked, this, [this] { isPlaying() ? pause() : play(); });
    stepBtn_ = new QPushButton(tr("Step"));
    stepBtn_->setShortcut(QKeySequence(Qt::Key_N));
    stepBtn_->setToolTip(
        tr("One iteration: new selection s, mask m(s,a), pruned inside-outside, a new tree (N)"));
    connect(stepBtn_, &QPushButton::clicked, this, [this] {
        pause();
        stepOnce();
    });
    restartBtn_ = new QPushButton(tr("Restart"));
    restartBtn_->setShortcut(QKeySequence(Qt::Key_R));
    restartBtn_->setToolTip(tr("Start a new chain with the settings shown (R)"));
    connect(restartBtn_, &QPushButton::clicked, this, [this] { restart(); });
    speed_ = new QSlider(Qt::Horizontal);
    speed_->setRange(0, 1500);
    speed_->setValue(300);
    speed_->setInvertedAppearance(true); // right = faster
    speed_->setMaximumWidth(140);
    speed_->setToolTip(tr("Animation speed (pause in milliseconds between iterations)"));
    connect(speed_, &QSlider::valueChanged, this, [this](int ms) { setStepInterval(ms); });
    seed_ = new QSpinBox;
    seed_->setRange(1, 1000000);
    seed_->setValue(1);
    seed_->setToolTip(tr("Seed of the chain (the same seed replays the same chain)"));
    selection_ = new QComboBox;
    for (SelectionKind k : {SelectionKind::Rotate, SelectionKind::Independent, SelectionKind::None})
        selection_->addItem(selectionName(k), static_cast<int>(k));
    selection_->setCurrentIndex(
        selection_->findData(static_cast<int>(RandomizedOptions{}.selection)));
    selection_->setToolTip(
        tr("Selection chain k*: rotate = the paper's s' = (M' \\ s) ∪ R; independent = a fresh "
           "random subset each iteration; none = nothing selected (exact inside-outside)"));
    support_ = new QDoubleSpinBox;
    support_->setRange(0, 1);
    support_->setSingleStep(0.05);
    support_->setDecimals(3);
    support_->setValue(RandomizedOptions{}.supportThreshold);
    support_->setToolTip(
        tr("M' = spans whose figure of merit (the policy's keep probability) is at least this"));
    fraction_ = new QDoubleSpinBox;
    fraction_->setRange(0.05, 0.95);
    fraction_->setSingleStep(0.05);
    fraction_->setDecimals(3);
    fraction_->setValue(2.0 / 3.0);
    fraction_->setToolTip(tr("|s| = fraction × |M'| (the paper's 2/3; rotate needs at least 1/2)"));
    for (QWidget* w : {static_cast<QWidget*>(seed_), static_cast<QWidget*>(support_),
                       static_cast<QWidget*>(fraction_)})
        w->setMaximumWidth(90);
    controls->addWidget(playBtn_);
    controls->addWidget(stepBtn_);
    controls->addWidget(restartBtn_);
    controls->addWidget(new QLabel(tr("Speed:")));
    controls->addWidget(speed_);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Seed:")));
    controls->addWidget(seed_);
    controls->addWidget(new QLabel(tr("Selection:")));
    controls->addWidget(selection_);
    controls->addWidget(new QLabel(tr("M′ threshold:")));
    controls->addWidget(support_);
    controls->addWidget(new QLabel(tr("|s|/|M′|:")));
    controls->addWidget(fraction_);
    controls->addStretch(1);
    return controls;
}

// The current mask (left) and the span posteriors (right).
QSplitter* RandomizedWindow::buildMaps() {
    auto* split = new QSplitter(Qt::Horizontal);
    auto* left = new QGroupBox(tr("Current mask m(s, a) — colour: span posterior under this mask"));
    auto* lv = new QVBoxLayout(left);
    maskMap_ = new widgets::ChartHeatMap;
    maskMap_->setObjectName("maskMap");
    maskMap_->setMarkerNames(tr("selected variable (in s)"), tr("constituent of the tree a"));
    maskMap_->setChangeLegendVisible(false);
    maskMap_->setTooltipProvider([this](int i, int k) { return cellTooltip(i, k, false); });
    lv->addWidget(maskMap_);
    auto* right = new QGroupBox(tr("Span posteriors"));
    auto* rv = new QVBoxLayout(right);
    view_ = new QComboBox;
    view_->addItems({tr("Running estimate (average over masks)"),
                     tr("Exact (unpruned inside-outside)"), tr("|estimate − exact|")});
    connect(view_, &QComboBox::currentIndexChanged, this,
            [this](int idx) { setEstimateView(idx); });
    rv->addWidget(view_);
    estimateMap_ = new widgets::ChartHeatMap;
    estimateMap_->setObjectName("estimateMap");
    estimateMap_->setMarkerNames(tr("in the chain's current tree"), tr("exact posterior ≥ 0.5"));
    estimateMap_->setChangeLegendVisible(false);
    estimateMap_->setTooltipProvider([this](int i, int k) { return cellTooltip(i, k, true); });
    rv->addWidget(estimateMap_);
    split->addWidget(left);
    split->addWidget(right);
    return split;
}

// The bias readout and its trace.
QHBoxLayout* RandomizedWindow::buildReadoutRow() {
    auto* bottom = new QHBoxLayout;
    readout_ = new QLabel;
    readout_->setObjectName("biasReadout");
    readout_->setWordWrap(true);
    readout_->setTextFormat(Qt::RichText);
    readout_->setMinimumWidth(380);
    trace_ = new widgets::BiasTrace;
    trace_->setMinimumHeight(190);
    bottom->addWidget(readout_, 2);
    bottom->addWidget(trace_, 3);
    return bottom;
}

// A changed setting restarts the chain; the timer runs the next iteration while playing.
void RandomizedWindow::connectChain() {
    connect(seed_, &QSpinBox::valueChanged, this, [this] { restart(); });
    connect(selection_, &QComboBox::currentIndexChanged, this, [this] { restart(); });
    connect(support_, &QDoubleSpinBox::valueChanged, this, [this] { restart(); });
    connect(fraction_, &QDoubleSpinBox::valueChanged, this, [this] { restart(); });

    timer_.setSingleShot(true);
    connect(&timer_, &QTimer::timeout, this, [this] {
        if (playing_ && !busy())
            run([](RandomizedChain& c, const Progress& p) { return c.step(1, p); });
    });
    setStepInterval(speed_->value());
    connect(&watcher_, &QFutureWatcher<ChainSnapshot>::finished, this, [this] { onJobDone(); });
}

RandomizedWindow::RandomizedWindow(QWidget* parent) : QWidget(parent) {
    setWindowTitle(tr("Randomized Pruning — PruneScope"));
    setObjectName("randomizedWindow");
    auto* v = new QVBoxLayout(this);
    v->addLayout(buildTitleRow());
    // What the window shows, and why the running estimate can trail a fixed mask (issue 42: the
    // window explained nothing, and a class watches the estimate do worse for hundreds of steps).
    auto* about = new QLabel(tr(
        "Each step draws a random mask m(s, a) — the chain re-samples the pruning variables s "
        "given the current tree a, so a's spans are never pruned — and runs inside-outside under "
        "it. The running estimate averages the span posteriors over the masks drawn: it "
        "converges to the exact posteriors (Bouchard-Côté, Petrov & Klein 2009, sec. 3), but "
        "slowly, so for the first hundreds of steps it can be further from them than one fixed "
        "mask of the same cost. The plot below shows its error step by step; the readout compares "
        "it with the policy's fixed mask."));
    about->setObjectName("randomizedExplanation");
    about->setWordWrap(true);
    v->addWidget(about);
    v->addLayout(buildChainControls());
    v->addWidget(buildMaps(), 3);
    v->addLayout(buildReadoutRow(), 1);
    status_ = new QLabel;
    v->addWidget(status_);

    connectChain();
    resize(1350, 820);
    show(ChainSnapshot{});
}

RandomizedWindow::~RandomizedWindow() {
    cancelAndWait();
}

void RandomizedWindow::cancelAndWait() {
    playing_ = false;
    timer_.stop();
    progress_.requestCancel();
    watcher_.waitForFinished();
}

void RandomizedWindow::closeEvent(QCloseEvent* e) {
    pause();
    progress_.requestCancel();
    QWidget::closeEvent(e);
}

RandomizedWindow* RandomizedWindow::showFor(MainWindow* w) {
    auto* r = w->findChild<RandomizedWindow*>(QString(), Qt::FindDirectChildrenOnly);
    if (!r) {
        r = new RandomizedWindow(w);
        r->setWindowFlag(Qt::Window);
        r->setSentenceProvider([w]() -> std::optional<RandomizedSentence> {
            const SentenceSession* s = w->explorer()->session();
            if (!s) return std::nullopt;
            return RandomizedSentence{s->grammarPtr(), s->policyPtr(), s->words()};
        });
    }
    if (r->provider_)
        if (auto s = r->provider_(); s && (!r->sentence_ || r->sentence_->words != s->words ||
                                           r->sentence_->grammar != s->grammar))
            r->setSentence(*s, QString());
    r->QWidget::show();
    r->raise();
    return r;
}

void RandomizedWindow::setSentenceProvider(
    std::function<std::optional<RandomizedSentence>()> provider) {
    provider_ = std::move(provider);
    useExplorerBtn_->setEnabled(provider_ != nullptr);
}

RandomizedOptions RandomizedWindow::options() const {
    RandomizedOptions o;
    o.seed = static_cast<std::uint64_t>(seed_->value());
    o.selection = static_cast<SelectionKind>(selection_->currentData().toInt());
    o.supportThreshold = support_->value();
    o.selectionFraction = fraction_->value();
    return o;
}

void RandomizedWindow::setOptions(const RandomizedOptions& o) {
    const QSignalBlocker b1(seed_), b2(selection_), b3(support_), b4(fraction_);
    seed_->setValue(static_cast<int>(o.seed));
    selection_->setCurrentIndex(selection_->findData(static_cast<int>(o.selection)));
    support_->setValue(o.supportThreshold);
    fraction_->setValue(o.selectionFraction);
    restart();
}

void RandomizedWindow::setSentence(RandomizedSentence s, const QString& title) {
    QString text;
    for (const auto& w : s.words)
        text += QString::fromStdString(w) + ' ';
    title_->setText(title.isEmpty()
                        ? tr("<b>%1 words:</b> %2").arg(s.words.size()).arg(text.toHtmlEscaped())
                        : title);
    sentence_ = std::move(s);
    restart();
}

void RandomizedWindow::restart() {
    if (!sentence_) return;
    if (busy()) { // start over as soon as the running work has stopped
        restartPending_ = true;
        progress_.requestCancel();
        return;
    }
    restartPending_ = false;
    const RandomizedSentence s = *sentence_;
    RandomizedOptions o = options();
    if (o.selection == SelectionKind::Rotate && o.selectionFraction < 0.5)
        o.selectionFraction = 0.5;
    status_->setText(tr("Computing exact inside-outside and starting the chain…"));
    run([s, o](RandomizedChain& c, const Progress& p) { return c.prepare(s, o, p); });
}

void RandomizedWindow::play() {
    playing_ = true;
    playBtn_->setText(tr("Pause"));
    if (!busy() && chain_.ready()) timer_.start(0);
}

void RandomizedWindow::pause() {
    playing_ = false;
    timer_.stop();
    playBtn_->setText(tr("Play"));
}

void RandomizedWindow::stepOnce() {
    if (busy() || !chain_.ready()) return;
    run([](RandomizedChain& c, const Progress& p) { return c.step(1, p); });
}

void RandomizedWindow::setStepInterval(int ms) {
    timer_.setInterval(std::max(0, ms));
    if (speed_->value() != ms) speed_->setValue(ms);
}

bool RandomizedWindow::waitIdle(int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while ((busy() || restartPending_) && t.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QCoreApplication::processEvents();
    return !busy() && !restartPending_;
}

void RandomizedWindow::run(std::function<ChainSnapshot(RandomizedChain&, const Progress&)> job) {
    if (busy()) return;
    progress_ = Progress([](const ProgressUpdate&) {}); // a fresh cancel flag per job
    const Progress p = progress_;
    RandomizedChain* chain = &chain_;
    watcher_.setFuture(QtConcurrent::run([chain, job = std::move(job), p]() {
        try {
            return job(*chain, p);
        } catch (const Cancelled&) {
            ChainSnapshot s;
            s.cancelled = true;
            return s;
        } catch (const std::exception& e) {
            ChainSnapshot s;
            s.error = e.what();
            return s;
        }
    }));
}

void RandomizedWindow::onJobDone() {
    const ChainSnapshot s = watcher_.result();
    if (restartPending_) {
        restart();
        return;
    }
    if (s.cancelled) return;
    if (!s.error.empty()) {
        pause();
        status_->setText(tr("Error: %1").arg(QString::fromStdString(s.error)));
        return;
    }
    show(s);
    if (playing_) timer_.start();
}

void RandomizedWindow::show(const ChainSnapshot& s) {
    const bool newSentence = s.iteration == 0;
    snap_ = s;
    if (newSentence) {
        QStringList words;
        if (sentence_ && !s.noDerivation && s.n > 0)
            for (const auto& w : sentence_->words)
                words << QString::fromStdString(w);
        maskMap_->setWords(words);
        estimateMap_->setWords(words);
        trace_->clearTrace();
        trace_->setReference(
            s.fixedSpanL1,
            tr("the policy's fixed mask (%1 × exact pushes)")
                .arg(s.exactPushes ? double(s.fixedPushes) / s.exactPushes : 0.0, 0, 'f', 3));
    } else {
        trace_->addPoint(s.iteration, s.spanL1, s.maskSpanL1);
    }
    if (s.noDerivation)
        status_->setText(
            tr("The grammar has no derivation of this sentence: nothing to estimate."));
    else if (s.n > 0)
        status_->setText(newSentence ? tr("Ready: press Play or Step.") : QString());
    const bool ok = chain_.ready() && !s.noDerivation;
    playBtn_->setEnabled(ok);
    stepBtn_->setEnabled(ok);
    restartBtn_->setEnabled(sentence_.has_value());
    readout_->setText(readoutText());
    refreshMaps();
    emit snapshotShown(s.iteration);
}

} // namespace prunescope::gui

namespace prunescope::gui {
int randomizedScreenshot(const QString& file, int sentence, int iterations, const QString& size) {
    MainWindow w(MainWindowOptions{false, false});
    if (!w.loadSampleSync()) return 2;
    w.selectSentence(sentence - 1);
    RandomizedWindow* r = RandomizedWindow::showFor(&w);
    const QStringList wh = size.split('x');
    if (wh.size() == 2) r->resize(wh[0].toInt(), wh[1].toInt());
    if (!r->waitIdle(60000)) return 1;
    for (int t = 0; t < iterations; ++t) {
        r->stepOnce();
        if (!r->waitIdle(60000)) return 1;
    }
    r->maskMap()->setFocusCell(0, 2);
    processEventsUntil([] { return false; },
                       300); // let the last paint settle, without spinning a core
    if (!r->grab().save(file)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(file));
        return 1;
    }
    std::printf("%s\n", qPrintable(file));
    return 0;
}
} // namespace prunescope::gui
