#pragma once
// The explorer's "Replay CKY" (issue 18): the chart of the current mask built from scratch, cell by
// cell bottom-up (core/parse/CkyReplay.h), with play / pause / step / speed. It holds the trace and
// the step (cells built so far) and says what the views show after that many cells: which cells are
// built, the current cell and its best split's children, the pushes and constituents so far.
// The trace is computed off the GUI thread (a BackgroundTask: ~0.9-1.5 s for a 40-word sentence
// under keep-all on the 2-core dev machine); the replay becomes active when it is ready.
#include "core/grammar/Grammar.h"
#include "core/parse/CkyReplay.h"
#include "widgets/ChartHeatMap.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

namespace prunescope::gui {

class BackgroundTask;
class SentenceSession;

class ReplayController : public QObject {
    Q_OBJECT
  public:
    explicit ReplayController(QObject* parent = nullptr);

    // Replays the session's sentence under its current mask: computes the trace in the background,
    // then becomes active at step 0 (nothing built yet), paused. A start or stop meanwhile discards
    // it. Returns at once (never processes events): it copies what it needs from s, and while an
    // older trace is still computing, the newest request waits for it to end (the latest wins).
    void start(const SentenceSession& s);
    void stop(); // back to the normal view
    bool computing() const { return computing_; }
    // Processes events until a trace being computed is ready (true) or timeoutMs passed (false):
    // screenshots and tests.
    bool waitUntilReady(int timeoutMs);
    bool active() const { return active_; }
    bool playing() const { return timer_.isActive(); }
    int step() const { return step_; } // cells built (or skipped) so far, 0..total()
    int total() const { return static_cast<int>(trace_.cells.size()); }
    bool complete() const { return active_ && step_ == total(); }
    const ReplayTrace& trace() const { return trace_; }
    // The cell of the last step (null at step 0).
    const ReplayCell* current() const { return step_ > 0 ? &trace_.cells[step_ - 1] : nullptr; }
    long pushesSoFar() const { return step_ > 0 ? pushesBefore_[step_] : 0; }
    long constituentsSoFar() const { return step_ > 0 ? constituentsBefore_[step_] : 0; }
    // Whether (i,k) is built (or skipped) after step() cells.
    bool reached(int i, int k) const { return trace_.order(i, k) < step_; }

    // "Cell [3,7) width 4: 3 split points, 2 with both children built (j = 4, 6), 41 binary rules
    // tried, 9 unary, 50 pushes; best NP (split 4). Cell 14 of 28, 512 of 1210 pushes."
    QString describe(bool binarizedLabels) const;
    // The heat map cells after step() cells, from the final presentation (same indexing): a cell
    // not reached yet shows no value or label; a pruned cell reached says "skipped"; the best-parse
    // dots appear only once the parse is complete.
    std::vector<widgets::HeatCell> cellsAt(std::vector<widgets::HeatCell> final) const;
    // The current cell (orange; grey "skipped" if pruned) and its best split's children (blue, L /
    // R).
    std::vector<widgets::CellHighlight> highlights() const;

    void setInterval(int ms) { timer_.setInterval(std::max(1, ms)); }
    int interval() const { return timer_.interval(); }

  public slots:
    void play();
    void pause();
    void togglePlay();
    void stepForward();
    void stepBack();
    void finish();
    void seek(int step);

  signals:
    void stepChanged(int step, int total);
    void playingChanged(bool playing);
    void activeChanged(bool active);
    void failed(const QString& message);

  private:
    // What a trace is computed from, copied from the session when Replay is asked for.
    struct Request {
        std::shared_ptr<const Grammar> grammar;
        std::vector<std::string> words;
        PruningMask mask;
        int generation = 0;
    };
    void launch(Request r);
    void apply(ReplayTrace trace);
    std::optional<Request> pending_; // the latest start while a trace was computing
    QMetaObject::Connection finishedConn_, failedConn_;
    std::shared_ptr<const Grammar> g_;
    BackgroundTask* task_ = nullptr;
    int generation_ = 0; // a finished trace of an older start is dropped
    bool computing_ = false;
    ReplayTrace trace_;
    std::vector<long> pushesBefore_, constituentsBefore_; // prefix sums: [s] = after s cells
    int step_ = 0;
    bool active_ = false;
    QTimer timer_;
};

} // namespace prunescope::gui
