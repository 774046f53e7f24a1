#include "app/gui/explorer/ReplayController.h"

#include "app/gui/explorer/SentenceSession.h"
#include "app/gui/window/BackgroundTask.h"
#include "core/treebank/Binarize.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QStringList>

namespace prunescope::gui {

ReplayController::ReplayController(QObject* parent) : QObject(parent) {
    timer_.setInterval(150);
    connect(&timer_, &QTimer::timeout, this, [this] {
        if (step_ >= total()) return pause();
        seek(step_ + 1);
        if (step_ >= total()) pause();
    });
}

void ReplayController::start(const SentenceSession& s) {
    timer_.stop();
    // Everything the work reads is copied here, at once: the session may be gone (another
    // sentence) before the work runs. No events are processed here (issue 42: waiting for the
    // previous trace in a nested event loop let Alt+→ destroy `s` under this call, and the work
    // then read a freed sentence).
    Request r{s.grammarPtr(), s.words(), s.mask(), ++generation_};
    computing_ = true;
    if (task_ && task_->isRunning()) { // replayCky polls no cancel: start once the last one ends
        pending_ = std::move(r);
        return;
    }
    pending_.reset();
    launch(std::move(r));
}

void ReplayController::launch(Request r) {
    if (!task_) {
        task_ = new BackgroundTask(this);
        // Every end of a work starts the request that waited for it, once the end's own signals
        // (finished / failed, after stateChanged) have been delivered.
        connect(task_, &BackgroundTask::stateChanged, this, [this](BackgroundTask::State st) {
            if (st == BackgroundTask::State::Running || st == BackgroundTask::State::Cancelling)
                return;
            QMetaObject::invokeMethod(
                this,
                [this] {
                    if (!pending_ || task_->isRunning()) return;
                    Request next = std::move(*pending_);
                    pending_.reset();
                    if (next.generation == generation_) launch(std::move(next)); // not stopped
                },
                Qt::QueuedConnection);
        });
    }
    auto result = std::make_shared<ReplayTrace>();
    const int gen = r.generation;
    const std::shared_ptr<const Grammar> g = r.grammar;
    disconnect(finishedConn_);
    disconnect(failedConn_);
    finishedConn_ = connect(task_, &BackgroundTask::finished, this, [this, gen, g, result] {
        if (gen != generation_) return;
        computing_ = false;
        g_ = g;
        apply(std::move(*result));
    });
    failedConn_ = connect(task_, &BackgroundTask::failed, this, [this, gen](const QString& m) {
        if (gen != generation_) return;
        computing_ = false;
        emit failed(m);
    });
    task_->start([g, words = std::move(r.words), mask = std::move(r.mask),
                  result](const Progress&) { *result = replayCky(*g, words, &mask); });
}

bool ReplayController::waitUntilReady(int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (computing_ && t.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    return !computing_;
}

void ReplayController::apply(ReplayTrace trace) {
    trace_ = std::move(trace);
    trace_.chart = DenseChart{}; // the views read the session's chart (the same one): drop the copy
    pushesBefore_.assign(trace_.cells.size() + 1, 0);
    constituentsBefore_.assign(trace_.cells.size() + 1, 0);
    for (std::size_t c = 0; c < trace_.cells.size(); ++c) {
        pushesBefore_[c + 1] = pushesBefore_[c] + trace_.cells[c].pushes;
        constituentsBefore_[c + 1] = constituentsBefore_[c] + trace_.cells[c].constituents;
    }
    step_ = 0;
    const bool was = active_;
    active_ = true;
    if (!was) emit activeChanged(true);
    emit stepChanged(step_, total());
    emit playingChanged(false);
}

void ReplayController::stop() {
    ++generation_; // a trace still being computed is dropped
    computing_ = false;
    pending_.reset();
    if (!active_) return;
    timer_.stop();
    active_ = false;
    emit playingChanged(false);
    emit activeChanged(false);
}

void ReplayController::play() {
    if (!active_ || timer_.isActive()) return;
    if (step_ >= total()) seek(0); // play at the end starts over
    timer_.start();
    emit playingChanged(true);
}

void ReplayController::pause() {
    if (!timer_.isActive()) return;
    timer_.stop();
    emit playingChanged(false);
}

void ReplayController::togglePlay() {
    playing() ? pause() : play();
}
void ReplayController::stepForward() {
    pause();
    seek(step_ + 1);
}
void ReplayController::stepBack() {
    pause();
    seek(step_ - 1);
}
void ReplayController::finish() {
    pause();
    seek(total());
}

void ReplayController::seek(int step) {
    if (!active_) return;
    step = std::clamp(step, 0, total());
    if (step == step_) return;
    step_ = step;
    emit stepChanged(step_, total());
}

QString ReplayController::describe(bool binarizedLabels) const {
    if (!active_) return QString();
    const QString totals = tr("%1 of %2 pushes").arg(pushesSoFar()).arg(trace_.pushes);
    const ReplayCell* c = current();
    if (!c)
        return tr("Replay CKY: %1 cells, built bottom-up (width 1, 2, …, left to right). Press "
                  "Play or Step. 0 %2.")
            .arg(total())
            .arg(totals);
    const QString head = tr("Cell %1 of %2 — [%3,%4) width %5: ")
                             .arg(step_)
                             .arg(total())
                             .arg(c->i)
                             .arg(c->k)
                             .arg(c->k - c->i);
    if (c->pruned)
        return head + tr("<b>pruned — skipped</b> (m = 0): nothing built, 0 pushes. Total %1.")
                          .arg(totals);
    QString what;
    if (c->k - c->i == 1) {
        what = tr("%1 lexical rules, %2 unary: %3 pushes")
                   .arg(c->lexicalPushes)
                   .arg(c->unaryPushes)
                   .arg(c->pushes);
    } else {
        QStringList js;
        for (int j : c->splits)
            js << QString::number(j);
        what = tr("split points: %1, %2 with both children built%3, %4 binary rules tried, %5 "
                  "unary%6: %7 pushes")
                   .arg(c->splitPoints)
                   .arg(c->splits.size())
                   .arg(js.isEmpty() ? QString() : tr(" (j = %1)").arg(js.join(", ")))
                   .arg(c->binaryPushes)
                   .arg(c->unaryPushes)
                   .arg(c->rootPushes ? tr(", %1 ROOT").arg(c->rootPushes) : QString())
                   .arg(c->pushes);
    }
    QString best = tr("nothing built");
    if (c->bestSymbol >= 0) {
        const std::string& sym = g_->symbols[static_cast<std::size_t>(c->bestSymbol)];
        best = tr("best %1").arg((binarizedLabels ? QString::fromStdString(sym)
                                                  : QString::fromStdString(unbinarizedLabel(sym)))
                                     .toHtmlEscaped());
        if (c->bestSplit >= 0) best += tr(" (split %1)").arg(c->bestSplit);
        best += tr(", %1 constituents").arg(c->constituents);
    }
    return head + what + "; " + best + ". " + tr("Total %1.").arg(totals);
}

std::vector<widgets::HeatCell>
ReplayController::cellsAt(std::vector<widgets::HeatCell> cells) const {
    const int n = trace_.n;
    if (!active_ || cells.size() != static_cast<std::size_t>(n + 1) * (n + 1)) return cells;
    const bool done = step_ == total();
    for (const ReplayCell& c : trace_.cells) {
        widgets::HeatCell& h = cells[static_cast<std::size_t>(c.i) * (n + 1) + c.k];
        if (!done) h.best = false;
        if (!reached(c.i, c.k)) {
            h.value = std::numeric_limits<float>::quiet_NaN();
            h.label.clear();
        } else if (c.pruned) {
            h.value = std::numeric_limits<float>::quiet_NaN();
            h.label = tr("skipped");
        }
    }
    return cells;
}

std::vector<widgets::CellHighlight> ReplayController::highlights() const {
    const ReplayCell* c = current();
    if (!c) return {};
    std::vector<widgets::CellHighlight> h;
    if (c->pruned) {
        h.push_back({c->i, c->k, QColor(110, 110, 110), tr("skipped")});
        return h;
    }
    h.push_back({c->i, c->k, QColor(230, 97, 1), tr("building")});
    if (c->bestSplit > c->i && c->bestSplit < c->k) {
        h.push_back({c->i, c->bestSplit, QColor(33, 102, 172), tr("L")});
        h.push_back({c->bestSplit, c->k, QColor(33, 102, 172), tr("R")});
    }
    return h;
}

} // namespace prunescope::gui
