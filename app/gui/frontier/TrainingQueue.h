#pragma once
// Background LOLS training for the GUI (Vieira & Eisner 2017, sec. 4 Alg. 2): a queue of runs
// executed one at a time by a BackgroundTask calling core's runLols, the same driver as
// `prunescope-cli lols`, so both write the same run directory (docs/lols.md). Progress reaches the
// GUI thread throttled; cancelling shows "cancelling…" at once and stops within 1 s in every phase
// (retraining included), keeping every committed iteration. Run directories made elsewhere (the
// CLI) can be followed by polling their log.jsonl.
#include "app/gui/window/BackgroundTask.h"
#include "core/lols/LolsRun.h"
#include "core/lols/LolsTrainer.h"

#include <QObject>
#include <QString>

#include <vector>

#include <nlohmann/json.hpp>

class QFileSystemWatcher;
class QTimer;

namespace prunescope::gui {

struct LolsJobSpec {
    LolsRunSpec
        run;     // what to train, as `prunescope-cli lols` takes it (lols.threads: worker threads)
    QString out; // the new run directory
};

enum class JobState { Queued, Running, Cancelling, Following, Finished, Cancelled, Failed };
QString jobStateName(JobState s);

struct TrainingJob {
    int id = 0;
    QString runDir;
    JobState state = JobState::Queued;
    bool followed = false;   // a directory made elsewhere, watched
    int iterations = 0;      // planned
    ProgressUpdate progress; // last progress report (step = iteration)
    double etaSeconds = -1;  // -1 = unknown
    double elapsedSeconds = 0;
    QString error;
    nlohmann::json config;
    std::vector<LolsIterationRecord> log; // committed iterations
};

class TrainingQueue : public QObject {
    Q_OBJECT
  public:
    explicit TrainingQueue(QObject* parent = nullptr);
    ~TrainingQueue() override; // cancels the running job and waits for it

    int enqueue(const LolsJobSpec& spec); // returns the job id
    int follow(const QString& runDir);    // throws InputError if it is not a run directory
    void cancel(int id);                  // queued: removed from the queue; running: Cancelling
    void cancelAll();
    bool waitForIdle(int timeoutMs); // processes events until no job runs or is queued

    const std::vector<TrainingJob>& jobs() const { return jobs_; }
    const TrainingJob* job(int id) const;
    bool busy() const;

  signals:
    void jobChanged(int id); // state, progress or ETA changed
    // One committed iteration (also for followed directories), in order.
    void iterationCommitted(int id, const QString& runDir,
                            const prunescope::LolsIterationRecord& record,
                            const nlohmann::json& config);

  private:
    TrainingJob* find(int id);
    void startNext();
    void onProgress(int id, const ProgressUpdate& p);
    void onCommitted(int id, LolsIterationRecord r);
    void onFinished(int id, bool cancelled, QString error);
    void poll();
    void updateEta(TrainingJob& j);

    std::vector<TrainingJob> jobs_;
    std::vector<std::pair<int, LolsJobSpec>> pending_;
    int nextId_ = 1;
    int running_ = -1;
    BackgroundTask* task_ = nullptr; // runs one job at a time
    QTimer* pollTimer_ = nullptr;
    QFileSystemWatcher* watcher_ = nullptr;
    std::vector<double>
        iterationStart_; // per job id: steady seconds at the running iteration's start
};

} // namespace prunescope::gui

Q_DECLARE_METATYPE(prunescope::LolsIterationRecord)
