// ExplorerPanel's step-by-step views (issue 18): Replay CKY (the replay bar, and what the heat map,
// the statistics and the trees show after the replay's current cell; ReplayController holds the
// trace and the step), and the statistics during a change animation, after its revealed cells.
#include "app/gui/explorer/ExplorerPanel.h"

#include "app/gui/explorer/ReplayController.h"
#include "app/gui/explorer/SentenceSession.h"
#include "core/parse/PartialParse.h"
#include "widgets/FlowLayout.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>

#include <cmath>

namespace prunescope::gui {

QWidget* ExplorerPanel::buildReplayBar() {
    replay_ = new ReplayController(this);
    replay_->setInterval(speed_->value());
    replayAct_ = new QAction(tr("&Replay CKY"), this);
    replayAct_->setShortcut(QKeySequence(Qt::Key_F5));
    replayAct_->setToolTip(
        tr("Build the chart of the current mask from scratch, cell by cell bottom-up, "
           "with the split points, rules and pushes of each cell (F5)"));
    connect(replayAct_, &QAction::triggered, this, [this] { startReplay(); });

    // The buttons wrap when the window is narrow (issue 42); the cell's description is below them.
    auto* bar = new QWidget;
    bar->setObjectName("replayBar");
    auto* v = new QVBoxLayout(bar);
    v->setContentsMargins(0, 2, 0, 2);
    v->setSpacing(2);
    auto* buttons = new QWidget;
    auto* h = new widgets::FlowLayout(buttons, 6, 2);
    h->setContentsMargins(0, 0, 0, 0);
    v->addWidget(buttons);
    auto* startBtn = new QPushButton(tr("Replay CKY"));
    startBtn->setObjectName("replayStart");
    startBtn->setToolTip(replayAct_->toolTip());
    startBtn->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    connect(startBtn, &QPushButton::clicked, replayAct_, &QAction::trigger);
    replayPlay_ = new QPushButton(tr("Play"));
    replayPlay_->setObjectName("replayPlay");
    replayPlay_->setToolTip(
        tr("Play / pause the replay (speed: the Speed slider, milliseconds per cell)"));
    auto* back = new QPushButton(tr("◀ Back"));
    back->setObjectName("replayBack");
    auto* step = new QPushButton(tr("Step ▶"));
    step->setObjectName("replayStep");
    step->setToolTip(tr("Build the next cell"));
    auto* all = new QPushButton(tr("Show All"));
    all->setObjectName("replayFinish");
    auto* stop = new QPushButton(tr("Stop Replay"));
    stop->setObjectName("replayStop");
    replayInfo_ = new QLabel;
    replayInfo_->setObjectName("replayInfo");
    replayInfo_->setWordWrap(true);
    replayInfo_->setTextFormat(Qt::RichText);
    replayInfo_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    replayInfo_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    connect(replayPlay_, &QPushButton::clicked, replay_, &ReplayController::togglePlay);
    connect(back, &QPushButton::clicked, replay_, &ReplayController::stepBack);
    connect(step, &QPushButton::clicked, replay_, &ReplayController::stepForward);
    connect(all, &QPushButton::clicked, replay_, &ReplayController::finish);
    connect(stop, &QPushButton::clicked, this, [this] { stopReplay(); });
    for (QWidget* w : std::initializer_list<QWidget*>{startBtn, replayPlay_, back, step, all, stop})
        h->addWidget(w);
    v->addWidget(replayInfo_);
    const QList<QWidget*> running{replayPlay_, back, step, all, stop, replayInfo_};
    auto setRunning = [this, running, startBtn](bool on) {
        for (QWidget* w : running)
            w->setVisible(on);
        startBtn->setText(on ? tr("Restart Replay") : tr("Replay CKY"));
        speed_->setEnabled(on || modeBox_->currentIndex() == 1);
    };
    setRunning(false);
    connect(replay_, &ReplayController::activeChanged, this, [this, setRunning](bool on) {
        setRunning(on);
        if (!on) {
            heat_->setHighlights({});
            replayInfo_->clear();
            refreshAll(false);
        }
    });
    connect(replay_, &ReplayController::failed, this,
            [this](const QString& m) { emit statusMessage(tr("Replay CKY failed: %1").arg(m)); });
    connect(replay_, &ReplayController::playingChanged, this,
            [this](bool playing) { replayPlay_->setText(playing ? tr("Pause") : tr("Play")); });
    connect(replay_, &ReplayController::stepChanged, this,
            [this, back, step, all](int s, int total) {
                back->setEnabled(s > 0);
                step->setEnabled(s < total);
                all->setEnabled(s < total);
                showReplayStep();
                refreshStats();
                refreshTrees();
                if (total > 0)
                    emit statusMessage(tr("Replay CKY: cell %1 of %2").arg(s).arg(total));
            });
    return bar;
}

void ExplorerPanel::startReplay() {
    if (!session_)
        return emit statusMessage(tr("Open a sentence first: there is no chart to replay"));
    removeOverlay(tr("the replay shows the chart's own values"));
    heat_->clearChanges();
    replay_->start(*session_);
    if (replay_->computing()) emit statusMessage(tr("Replay CKY: computing the trace…"));
}

void ExplorerPanel::stopReplay() {
    if (replay_) replay_->stop();
}

QString ExplorerPanel::replayText() const {
    return replayInfo_->text();
}

// The heat map after the current cell: the final presentation with unbuilt cells blank.
void ExplorerPanel::showReplayStep() {
    if (!session_ || !replay_->active()) return;
    CellPresentation pres = presentCells(*session_, quantity_, binarizedLabels_);
    heat_->setScale(pres.lo, pres.hi, pres.title, pres.decimals);
    heat_->setCells(replay_->cellsAt(std::move(pres.cells)));
    heat_->setHighlights(replay_->highlights());
    replayInfo_->setText(replay_->describe(binarizedLabels_));
}

// Counts so far and the best partial parse (core/parse/PartialParse.h); F1, log probability and
// reward need the whole-sentence cell.
void ExplorerPanel::refreshReplayStats() {
    const QString dash = QStringLiteral("—");
    const ReplayTrace& t = replay_->trace();
    const PartialParse p =
        bestPartialParse(session_->chart(), builtAfter(t, session_->chart(), replay_->step()));
    parseValue_->setText(tr("replay: %1 of %2 cells built — <b>partial: %3</b>")
                             .arg(replay_->step())
                             .arg(replay_->total())
                             .arg(fragmentCountText(p.size())));
    parseValue_->setToolTip(
        tr("The fewest built constituents that cover the sentence left to right (ties: the highest "
           "inside score); the tree needs the whole-sentence cell (0,%1), built last")
            .arg(t.n));
    f1Value_->setText(tr("— (no complete parse yet)"));
    constValue_->setText(
        tr("%1 so far (of %2)").arg(replay_->constituentsSoFar()).arg(t.constituents));
    pushValue_->setText(tr("%1 so far (of %2)").arg(replay_->pushesSoFar()).arg(t.pushes));
    int kept = 0;
    for (int s = 0; s < replay_->step(); ++s) {
        const ReplayCell& c = t.cells[s];
        kept += !c.pruned && c.k - c.i > 1 && c.k - c.i < t.n;
    }
    keptValue_->setText(tr("%1 so far (of %2 kept, %3 prunable)")
                            .arg(kept)
                            .arg(t.spansKept)
                            .arg(PruningMask::prunableCount(t.n)));
    logProbValue_->setText(dash);
    rewardValue_->setText(dash);
}

QString ExplorerPanel::fragmentCountText(int fragments) const {
    return fragments == 1 ? tr("1 fragment") : tr("%1 fragments").arg(fragments);
}

// The best partial parse after the current cell, as a forest of fragments; the gold tree marks the
// gold brackets found so far. (At the last step refreshTrees shows the parser's tree instead.)
void ExplorerPanel::refreshReplayTrees() {
    const ReplayTrace& t = replay_->trace();
    // The replay's chart is the session's (ReplayController keeps no copy).
    const PartialParse p =
        bestPartialParse(session_->chart(), builtAfter(t, session_->chart(), replay_->step()));
    const std::vector<Tree> fragments =
        fragmentTrees(session_->grammar(), session_->chart(), session_->words(), p);
    predicted_->setForest(fragments, tr("partial: %1 (cell %2 of %3)")
                                         .arg(fragmentCountText(p.size()))
                                         .arg(replay_->step())
                                         .arg(replay_->total()));
    if (session_->gold()) {
        goldTree_->setTree(*session_->gold());
        goldTree_->setMatchSet(scoredBrackets(Tree{"ROOT", fragments}), true);
        predicted_->setMatchSet(session_->goldBrackets(), true);
    } else {
        predicted_->setMatchSet({}, false);
    }
}

// Only when the change is shown cell by cell (Instant mode keeps the one-frame click path lean).
void ExplorerPanel::rememberPreviousParse() {
    previous_.reset();
    if (!session_ || heat_->animationMode() == widgets::AnimationMode::Instant) return;
    const FlipResult& r = session_->result();
    previous_ = PreviousParse{r.success,
                              r.logProb,
                              session_->f1(),
                              r.tree,
                              r.constituents,
                              r.pushes,
                              session_->predictedBrackets()};
}

bool ExplorerPanel::changeInProgress() const {
    return previous_ && heat_->totalChanges() > 0 &&
           heat_->revealedChanges() < heat_->totalChanges();
}

bool ExplorerPanel::rootRevealed() const {
    const int n = session_->length();
    const auto& marks = heat_->changes();
    for (int m = 0; m < heat_->revealedChanges() && m < static_cast<int>(marks.size()); ++m)
        if (marks[m].i == 0 && marks[m].k == n) return true;
    return false;
}

long ExplorerPanel::constituentsRevealed() const {
    long c = previous_->constituents;
    for (int m = 0; m < heat_->revealedChanges() && m < static_cast<int>(postDelta_.size()); ++m)
        c += postDelta_[m];
    return c;
}

// After `s` of T touched cells: constituents exactly; the result, F1, log probability and reward
// are the previous parse's until the whole-sentence cell is revealed; pushes are counted per parse.
void ExplorerPanel::refreshChangeStepStats() {
    const QString dash = QStringLiteral("—");
    const int s = heat_->revealedChanges(), total = heat_->totalChanges();
    const bool root = rootRevealed();
    const FlipResult& r = session_->result();
    const bool success = root ? r.success : previous_->success;
    const double f1 = root ? session_->f1() : previous_->f1;
    const QString at = tr("after cell %1 of %2").arg(s).arg(total);
    parseValue_->setText((success ? tr("parsed") : tr("<b>parse failed</b>")) +
                         (root ? QString() : tr(" — previous parse")));
    parseValue_->setToolTip(
        root ? QString()
             : tr("The whole-sentence cell (0,%1) is not updated yet (%2): the result, F1, log "
                  "probability and tree are those before the change")
                   .arg(session_->length())
                   .arg(at));
    const bool hasF1 = session_->hasGold() && !std::isnan(f1);
    f1Value_->setText(hasF1 ? QString::number(100 * f1, 'f', 2) : dash);
    constValue_->setText(tr("%1 %2").arg(constituentsRevealed()).arg(at));
    pushValue_->setText(tr("%1 (previous parse)").arg(previous_->pushes));
    pushValue_->setToolTip(
        tr("Pushes are counted per parse: the new count shows after the last changed cell"));
    logProbValue_->setText(success ? QString::number(root ? r.logProb : previous_->logProb, 'f', 3)
                                   : dash);
    rewardValue_->setText(dash);
}

void ExplorerPanel::refreshPreviousTrees() {
    if (previous_->success)
        predicted_->setTree(previous_->tree);
    else
        predicted_->setMessage(
            tr("Parse failed before this change (the whole-sentence cell is not updated yet)."));
    if (session_->gold()) {
        goldTree_->setTree(*session_->gold());
        goldTree_->setMatchSet(previous_->brackets, previous_->success);
        predicted_->setMatchSet(session_->goldBrackets(), true);
    }
}

void ExplorerPanel::countConstituentChanges(const std::vector<widgets::CellMark>& marks) {
    postDelta_.assign(marks.size(), 0);
    for (const ChangeEvent& e : session_->lastEvents()) {
        if (e.layer != 1 || (e.kind != CellChange::Appeared && e.kind != CellChange::Vanished))
            continue;
        for (std::size_t m = 0; m < marks.size(); ++m)
            if (marks[m].i == e.i && marks[m].k == e.k)
                postDelta_[m] += e.kind == CellChange::Appeared ? 1 : -1;
    }
}

} // namespace prunescope::gui
