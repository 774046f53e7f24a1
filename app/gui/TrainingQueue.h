#pragma once
// Background LOLS training for the GUI (Vieira & Eisner 2017, sec. 4 Alg. 2): a queue of runs
// executed one at a time on a worker QThread calling the core LolsTrainer, writing the same run
// directory as `prunescope-cli lols` (docs/lols.md); progress reaches the GUI thread through queued
// calls; cancelling sets the trainer's atomic flag, so finished iterations stay committed. Run
// directories made elsewhere (the CLI) can be followed by polling their log.jsonl.
#include "core/lols/LolsTrainer.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

class QFileSystemWatcher;
class QThread;
class QTimer;

namespace prunescope::gui {

struct LolsJobSpec {
    QString grammar, init, train, dev, out;  // files / treebanks; out = new run directory
    LolsConfig lols;                         // surrogate, lambda, iterations, minibatch, threads, ...
    int maxLength = 40, trainLimit = 0, devLimit = 0;
    bool q0 = true;       // aggregate the baseline dataset Q0 (CLI default)
    double q0Scale = 1.0;
};
// config.json of a run, exactly as `prunescope-cli lols` writes it (threads are not recorded).
nlohmann::json lolsRunConfig(const LolsJobSpec& s, const Policy& init);

enum class JobState { Queued, Running, Following, Finished, Cancelled, Failed };
QString jobStateName(JobState s);

struct TrainingJob {
    int id = 0;
    QString runDir;
    JobState state = JobState::Queued;
    bool followed = false;    // a directory made elsewhere, watched
    int iterations = 0;       // planned
    LolsProgress progress;    // last progress report
    double etaSeconds = -1;   // -1 = unknown
    double elapsedSeconds = 0;
    QString error;
    nlohmann::json config;
    std::vector<LolsIterationRecord> log;  // committed iterations
};

class TrainingQueue : public QObject {
    Q_OBJECT
public:
    explicit TrainingQueue(QObject* parent = nullptr);
    ~TrainingQueue() override;  // cancels the running job and waits for it

    int enqueue(const LolsJobSpec& spec);  // returns the job id
    int follow(const QString& runDir);     // throws InputError if it is not a run directory
    void cancel(int id);                   // queued: removed from the queue; running: flag set
    void cancelAll();
    bool waitForIdle(int timeoutMs);       // processes events until no job runs or is queued

    const std::vector<TrainingJob>& jobs() const { return jobs_; }
    const TrainingJob* job(int id) const;
    bool busy() const;

signals:
    void jobChanged(int id);  // state, progress or ETA changed
    // One committed iteration (also for followed directories), in order.
    void iterationCommitted(int id, const QString& runDir, const prunescope::LolsIterationRecord& record,
                            const nlohmann::json& config);

private:
    TrainingJob* find(int id);
    void startNext();
    void onProgress(int id, LolsProgress p);
    void onCommitted(int id, LolsIterationRecord r);
    void onFinished(int id, bool cancelled, QString error);
    void poll();
    void updateEta(TrainingJob& j);

    std::vector<TrainingJob> jobs_;
    std::vector<std::pair<int, LolsJobSpec>> pending_;
    int nextId_ = 1;
    int running_ = -1;
    QThread* thread_ = nullptr;
    std::shared_ptr<std::atomic<bool>> cancel_;
    QTimer* pollTimer_ = nullptr;
    QFileSystemWatcher* watcher_ = nullptr;
    std::vector<double> iterationStart_;  // per job id: steady seconds at the running iteration's start
};

} // namespace prunescope::gui

Q_DECLARE_METATYPE(prunescope::LolsIterationRecord)
