// Regret view (Vieira & Eisner 2017, sec. 7.3, eq. 4): see RegretWindow.h.
#include "app/gui/explorer/RegretWindow.h"

#include "app/gui/explorer/ExplorerPanel.h"
#include "app/gui/explorer/ShownPath.h"
#include "core/grammar/GrammarFile.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/policy/GoldSpans.h"
#include "core/treebank/Normalize.h"

#include <QComboBox>
#include <QDoubleValidator>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QThread>

#include <cmath>

namespace prunescope::gui {

RegretOverlay computeRegretOverlay(const Grammar& g, const std::vector<std::string>& words,
                                   const Tree& gold, const PruningMask& rollIn, Surrogate s,
                                   double lambda) {
    RolloutRequest req;
    req.grammar = &g;
    req.words = words;
    req.gold = gold;
    req.rollIn = rollIn;
    RegretOverlay o;
    o.rollouts = s == Surrogate::CP ? changePropagationRollouts(req) : dpRollouts(req);
    const int n = static_cast<int>(words.size());
    const auto goldInd = spanIndicator(binarizeLike(g, gold));
    o.cells.assign(static_cast<std::size_t>((n + 1) * (n + 1)), widgets::HeatCell{});
    for (int i = 0; i < n; ++i)
        for (int k = i + 1; k <= n; ++k) {
            auto& c = o.cells[static_cast<std::size_t>(i * (n + 1) + k)];
            c.gold = !goldInd.empty() && goldInd[static_cast<std::size_t>(i * (n + 1) + k)];
            c.kept = rollIn.keep(i, k); // hatched = pruned by the roll-in, as in the explorer
        }
    for (const SpanRollout& r : o.rollouts) {
        auto& c = o.cells[static_cast<std::size_t>(r.i * (n + 1) + r.k)];
        const double d = r.rewardKeep(lambda) - r.rewardPrune(lambda);
        c.value = static_cast<float>(d);
        const bool oracleKeeps = d >= 0; // the rollout oracle's choice (ties: keep)
        const bool disagree = oracleKeeps != c.gold && d != 0;
        c.label = QString(oracleKeeps ? "K" : "P") + (disagree ? "!" : "");
        o.disagreements += disagree;
        o.maxAbs = std::max(o.maxAbs, std::abs(d));
    }
    return o;
}

QString regretOverlayName() {
    return QString::fromUtf8("Regret r\u0302[keep] \u2212 r\u0302[prune]");
}

void applyRegretOverlay(ExplorerPanel* explorer, const RegretOverlay& o, double lambda) {
    ExplorerPanel::Overlay view;
    view.name = regretOverlayName();
    view.title =
        QString::fromUtf8(
            "r\u0302[keep] \u2212 r\u0302[prune] (\u03bb=%1): blue = oracle prunes, red = keeps")
            .arg(lambda, 0, 'g', 4);
    view.cells = o.cells;
    view.maxAbs = o.maxAbs;
    view.decimals = 4;
    auto rollouts = std::make_shared<std::vector<SpanRollout>>(o.rollouts);
    auto cells = std::make_shared<std::vector<widgets::HeatCell>>(o.cells);
    const int n = explorer->heatMap()->length();
    view.tooltip = [rollouts, cells, n, lambda](int i, int k) -> QString {
        for (const auto& r : *rollouts)
            if (r.i == i && r.k == k) {
                const bool gold = (*cells)[static_cast<std::size_t>(i * (n + 1) + k)].gold;
                const double d = r.rewardKeep(lambda) - r.rewardPrune(lambda);
                return QString("span (%1,%2)  gold: %3\nr^[keep] = %4 (acc %5, runtime "
                               "%6)\nr^[prune] = %7 (acc %8, "
                               "runtime %9)\noracle: %10   regret of gold label: %11")
                    .arg(i)
                    .arg(k)
                    .arg(gold ? "yes" : "no")
                    .arg(r.rewardKeep(lambda), 0, 'g', 5)
                    .arg(r.accuracyKeep, 0, 'g', 4)
                    .arg(r.runtimeKeep)
                    .arg(r.rewardPrune(lambda), 0, 'g', 5)
                    .arg(r.accuracyPrune, 0, 'g', 4)
                    .arg(r.runtimePrune)
                    .arg(d >= 0 ? "keep" : "prune")
                    .arg(std::abs(d) * ((d >= 0) != gold), 0, 'g', 4);
            }
        return QString("span (%1,%2): not prunable").arg(i).arg(k);
    };
    explorer->showOverlay(std::move(view));
}

// The settings: roll-in policy, lambda, surrogate, treebank, sample size and threads.
QFormLayout* RegretWindow::buildSettingsForm() {
    auto* form = new QFormLayout;
    policy_ = new QLineEdit(this);
    policy_->setObjectName("policy");
    form->addRow("Roll-in policy", policy_);
    lambda_ = new QLineEdit("0", this);
    lambda_->setValidator(new QDoubleValidator(0, 1e12, 12, lambda_));
    form->addRow(QString::fromUtf8("\u03bb (surrogate units)"), lambda_);
    surrogate_ = new QComboBox(this);
    surrogate_->addItem("rCP (change propagation, as the paper)", "rcp");
    surrogate_->addItem("rDP (inside-outside)", "rdp");
    form->addRow("Rollouts", surrogate_);
    treebank_ = new QLineEdit(this);
    form->addRow("Treebank", treebank_);
    sentences_ = new QSpinBox(this);
    sentences_->setRange(1, 100000);
    sentences_->setValue(50);
    form->addRow("Sentences", sentences_);
    threads_ = new QSpinBox(this);
    threads_->setRange(1, 256);
    threads_->setValue(std::max(1, QThread::idealThreadCount() - 1));
    form->addRow("Threads", threads_);
    return form;
}

// Compute, Cancel, the overlay toggle, Save plot… and Copy table (save and copy are returned too).
QHBoxLayout* RegretWindow::buildButtonRow(QPushButton*& save, QPushButton*& copy) {
    auto* buttons = new QHBoxLayout;
    computeBtn_ = new QPushButton("Compute", this);
    cancelBtn_ = new QPushButton("Cancel", this);
    cancelBtn_->setEnabled(false);
    cancelBtn_->setToolTip(
        "Stop the computation (within a second); nothing is shown for a cut sample");
    overlayBtn_ = new QPushButton("Overlay on explorer sentence", this);
    overlayBtn_->setObjectName("overlay");
    overlayBtn_->setCheckable(true);
    overlayBtn_->setEnabled(false);
    overlayBtn_->setToolTip(
        "On: colour every span of the explorer's sentence by the signed r^[keep] - r^[prune] "
        "(rolled in with its current mask; blue < 0 < red).\nOff: the explorer's colour quantity "
        "and map as before. A flip or another sentence in the explorer turns it off.");
    save = new QPushButton("Save plot…", this);
    copy = new QPushButton("Copy table", this);
    copy->setObjectName("copyTable");
    copy->setToolTip("Copy the table as tab-separated text (exact values)");
    buttons->addWidget(computeBtn_);
    buttons->addWidget(cancelBtn_);
    buttons->addWidget(overlayBtn_);
    buttons->addWidget(save);
    buttons->addWidget(copy);
    buttons->addStretch(1);
    return buttons;
}

// The status line and the progress bar beside it.
QHBoxLayout* RegretWindow::buildStatusRow() {
    status_ = new QLabel(this);
    status_->setObjectName("status");
    progress_ = new QProgressBar(this);
    progress_->setObjectName("progress");
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setTextVisible(true);
    progress_->hide();
    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(status_, 1);
    statusRow->addWidget(progress_);
    return statusRow;
}

// The window's layout: settings, buttons, the placeholder (later the results) and the status row.
void RegretWindow::arrangeLayout(QFormLayout* form, QHBoxLayout* buttons, QHBoxLayout* statusRow) {
    // No empty axes before the first result: a note stands where the bars will be.
    auto* before = new QLabel(
        "Nothing computed yet. Press Compute to roll out every state of the roll-in policy "
        "on the sample (eq. 4 decomposes the gold oracle's regret).",
        this);
    before->setObjectName("placeholder");
    before->setAlignment(Qt::AlignCenter);
    before->setWordWrap(true);
    auto* lay = new QVBoxLayout(this);
    lay->addLayout(form);
    lay->addLayout(buttons);
    lay->addWidget(before, 1);
    auto* results = new QSplitter(Qt::Horizontal, this);
    results->setObjectName("results");
    results->hide(); // shown with the first result
    results->addWidget(bars_);
    results->addWidget(table_);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 2);
    lay->addWidget(results, 1);
    lay->addLayout(statusRow);
}

void RegretWindow::connectButtons(QPushButton* save, QPushButton* copy) {
    connect(computeBtn_, &QPushButton::clicked, this, &RegretWindow::compute);
    connect(cancelBtn_, &QPushButton::clicked, this, &RegretWindow::cancel);
    connect(overlayBtn_, &QPushButton::clicked, this, [this](bool on) {
        if (!on) return removeOverlay();
        QString err;
        if (!overlayCurrentSentence(&err)) status_->setText(err);
    });
    connect(copy, &QPushButton::clicked, table_, [this] { table_->copySelection(); });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, "Save plot", "regret.png",
                                                       "PNG (*.png);;PDF (*.pdf)");
        QString err;
        if (!p.isEmpty() && !bars_->saveImage(p, 900, 420, &err))
            QMessageBox::warning(this, "Save plot", err);
    });
}

// The background computation's progress, state and outcome.
void RegretWindow::connectTask() {
    connect(task_, &BackgroundTask::progressChanged, this,
            [this](const ProgressUpdate& u) { showProgress(progress_, u); });
    connect(task_, &BackgroundTask::stateChanged, this, [this](BackgroundTask::State st) {
        const bool running =
            st == BackgroundTask::State::Running || st == BackgroundTask::State::Cancelling;
        computeBtn_->setEnabled(!running);
        cancelBtn_->setEnabled(st == BackgroundTask::State::Running);
        progress_->setVisible(running);
        if (st == BackgroundTask::State::Cancelling) {
            status_->setText(QString::fromUtf8("Cancelling\u2026"));
            progress_->setRange(0, 0);
        }
    });
    connect(task_, &BackgroundTask::finished, this, [this] {
        showResult(*result_);
        emit finished(true);
    });
    connect(task_, &BackgroundTask::cancelled, this, [this] {
        status_->setText("Cancelled.");
        emit finished(false);
    });
    connect(task_, &BackgroundTask::failed, this, [this](const QString& err) {
        status_->setText("Error: " + err);
        emit finished(false);
    });
}

RegretWindow::RegretWindow(QWidget* parent) : QWidget(parent, Qt::Window) {
    setWindowTitle("Regret of the gold oracle (eq. 4)");
    auto* form = buildSettingsForm();
    QPushButton *save = nullptr, *copy = nullptr;
    auto* buttons = buildButtonRow(save, copy);
    bars_ = new widgets::RegretBars(this);
    table_ = new RegretTable(this);
    copy->setEnabled(false);
    auto* statusRow = buildStatusRow();
    arrangeLayout(form, buttons, statusRow);
    task_ = new BackgroundTask(this);
    resize(1200, 680);
    connectButtons(save, copy);
    connectTask();
}

void RegretWindow::showResult(const RegretStats& s) {
    stats_ = s;
    widgets::RegretBarsData d;
    d.states = s.states, d.gold = s.gold, d.pDiff = s.pDiff();
    d.pGoldGivenDiff = s.pGoldGivenDiff(), d.pNonGoldGivenDiff = s.pNonGoldGivenDiff();
    d.regretGivenDiffGold = s.regretGivenDiffGold(),
    d.regretGivenDiffNonGold = s.regretGivenDiffNonGold();
    d.meanRegret = s.meanRegret();
    d.title = QString("%1, %2 rollouts, \u03bb = %3, %4 sentences")
                  .arg(QFileInfo(policy_->text()).fileName(), surrogate_->currentData().toString())
                  .arg(lambda_->text())
                  .arg(s.sentences);
    bars_->setRegret(d);
    table_->setStats(s, surrogateFromName(surrogate_->currentData().toString().toStdString()) ==
                                Surrogate::CP
                            ? QString::fromUtf8("F1 \u2212 \u03bb\u00b7constituents")
                            : QString::fromUtf8("r\u0304 \u2212 \u03bb\u00b7spans kept"));
    if (auto* before = findChild<QLabel*>("placeholder")) before->hide();
    if (auto* results = findChild<QSplitter*>("results")) results->show();
    if (auto* copy = findChild<QPushButton*>("copyTable")) copy->setEnabled(true);
    // Say when the Sentences limit cut the sample.
    const int available = available_ ? *available_ : -1;
    status_->setText(
        available > s.sentences
            ? QString("Done: %1 of the %2 sentences of at most %3 words (capped by Sentences).")
                  .arg(s.sentences)
                  .arg(available)
                  .arg(request().maxLength)
            : QString("Done: all %1 sentences of at most %2 words.")
                  .arg(s.sentences)
                  .arg(request().maxLength));
}

RegretWindow::~RegretWindow() = default; // the task cancels and waits

void RegretWindow::setRequest(const RegretRequest& r) {
    grammar_ = r.grammar;
    policy_->setText(shownPath(r.policy));
    policy_->setToolTip(absolutePath(r.policy));
    treebank_->setText(shownPath(r.treebank));
    lambda_->setText(QString::number(r.lambda, 'g', 10));
    surrogate_->setCurrentIndex(r.surrogate == Surrogate::CP ? 0 : 1);
    sentences_->setValue(r.sentences);
    threads_->setValue(r.threads);
}

RegretRequest RegretWindow::request() const {
    RegretRequest r;
    r.grammar = grammar_;
    r.policy = policy_->text();
    r.treebank = treebank_->text();
    r.lambda = lambda_->text().toDouble();
    r.surrogate = surrogateFromName(surrogate_->currentData().toString().toStdString());
    r.sentences = sentences_->value();
    r.threads = threads_->value();
    return r;
}

void RegretWindow::setExplorer(ExplorerPanel* e) {
    if (explorer_) disconnect(explorer_.data(), &ExplorerPanel::overlayRemoved, this, nullptr);
    explorer_ = e;
    overlayBtn_->setEnabled(e != nullptr);
    overlayBtn_->setChecked(e && e->overlayShown());
    if (!e) return;
    // The explorer dropped the overlay (a flip, another sentence, another colour quantity, ...).
    connect(e, &ExplorerPanel::overlayRemoved, this, [this](const QString& why) {
        overlayBtn_->setChecked(false);
        status_->setText(why.isEmpty() ? QString("Overlay removed.")
                                       : QString("Overlay removed: %1.").arg(why));
    });
}

void RegretWindow::removeOverlay() {
    overlayBtn_->setChecked(false);
    if (explorer_) explorer_->removeOverlay();
}

void RegretWindow::compute() {
    if (task_->isRunning()) return;
    const RegretRequest r = request();
    auto result = std::make_shared<RegretStats>();
    result_ = result;
    auto available = std::make_shared<int>(-1);
    available_ = available;
    status_->setText("Rolling out every state of the policy's roll-in…");
    progress_->setRange(0, 0);
    task_->start([r, result, available](const Progress& progress) {
        const Grammar g = loadGrammar(r.grammar.toStdString());
        const Policy p = loadPolicy(r.policy.toStdString());
        auto sentences = lolsSentences(
            readNormalizedTreebank(r.treebank.toStdString(), 0, progress), r.maxLength);
        *available = static_cast<int>(sentences.size());
        if (static_cast<int>(sentences.size()) > r.sentences)
            sentences.resize(static_cast<std::size_t>(r.sentences));
        RegretOptions opt;
        opt.surrogate = r.surrogate;
        opt.lambda = r.lambda;
        opt.threads = r.threads;
        *result = regretAnalysis(g, sentences, p, opt, progress);
    });
}

void RegretWindow::cancel() {
    task_->cancel();
}

bool RegretWindow::overlayCurrentSentence(QString* error) {
    auto fail = [&](const QString& m) {
        if (error) *error = m;
        overlayBtn_->setChecked(explorer_ && explorer_->overlayShown());
        return false;
    };
    if (!explorer_ || !explorer_->session()) return fail("The explorer shows no sentence.");
    const SentenceSession* s = explorer_->session();
    if (!s->hasGold()) return fail("The explorer's sentence has no gold tree: rollouts need one.");
    const RegretRequest r = request();
    try {
        const RegretOverlay o = computeRegretOverlay(s->grammar(), s->words(), *s->gold(),
                                                     s->mask(), r.surrogate, r.lambda);
        applyRegretOverlay(explorer_, o, r.lambda);
        overlayBtn_->setChecked(explorer_->overlayShown());
        status_->setText(QString("Overlay: %1 states, %2 where the rollout oracle disagrees with "
                                 "the gold label (!).")
                             .arg(o.rollouts.size())
                             .arg(o.disagreements));
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()));
    }
    return true;
}

} // namespace prunescope::gui
