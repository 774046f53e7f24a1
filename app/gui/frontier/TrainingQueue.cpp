// Background LOLS runs (Vieira & Eisner 2017, sec. 4 Alg. 2): see TrainingQueue.h.
#include "app/gui/frontier/TrainingQueue.h"

#include "core/lols/RunDirectory.h"

#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QTimer>

#include <chrono>

namespace prunescope::gui {

namespace {

double nowSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

QString jobStateName(JobState s) {
    switch (s) {
    case JobState::Queued:
        return "queued";
    case JobState::Running:
        return "running";
    case JobState::Cancelling:
        return QString::fromUtf8("cancelling\u2026");
    case JobState::Following:
        return "following";
    case JobState::Finished:
        return "finished";
    case JobState::Cancelled:
        return "cancelled";
    default:
        return "failed";
    }
}

TrainingQueue::TrainingQueue(QObject* parent) : QObject(parent) {
    qRegisterMetaType<prunescope::LolsIterationRecord>();
    task_ = new BackgroundTask(this);
    task_->setLowPriority(true);
    connect(task_, &BackgroundTask::progressChanged, this,
            [this](const ProgressUpdate& u) { onProgress(running_, u); });
    connect(task_, &BackgroundTask::stateChanged, this, [this](BackgroundTask::State s) {
        TrainingJob* j = find(running_);
        if (s != BackgroundTask::State::Cancelling || !j) return;
        j->state = JobState::Cancelling;
        j->etaSeconds = -1;
        emit jobChanged(running_);
    });
    connect(task_, &BackgroundTask::finished, this, [this] { onFinished(running_, false, {}); });
    connect(task_, &BackgroundTask::cancelled, this, [this] { onFinished(running_, true, {}); });
    connect(task_, &BackgroundTask::failed, this,
            [this](const QString& m) { onFinished(running_, false, m); });
    pollTimer_ = new QTimer(this);
    pollTimer_->setInterval(1000);
    connect(pollTimer_, &QTimer::timeout, this, &TrainingQueue::poll);
    watcher_ = new QFileSystemWatcher(this);
    connect(watcher_, &QFileSystemWatcher::fileChanged, this, &TrainingQueue::poll);
    connect(watcher_, &QFileSystemWatcher::directoryChanged, this, &TrainingQueue::poll);
}

TrainingQueue::~TrainingQueue() {
    pending_.clear();
    delete task_; // cancels and waits now, while the callbacks' target is still whole
    task_ = nullptr;
}

TrainingJob* TrainingQueue::find(int id) {
    for (auto& j : jobs_)
        if (j.id == id) return &j;
    return nullptr;
}

const TrainingJob* TrainingQueue::job(int id) const {
    for (const auto& j : jobs_)
        if (j.id == id) return &j;
    return nullptr;
}

bool TrainingQueue::busy() const {
    return (task_ && task_->isRunning()) || !pending_.empty();
}

int TrainingQueue::enqueue(const LolsJobSpec& spec) {
    TrainingJob j;
    j.id = nextId_++;
    j.runDir = QFileInfo(spec.out).absoluteFilePath();
    j.iterations = spec.run.lols.iterations;
    jobs_.push_back(j);
    pending_.emplace_back(j.id, spec);
    emit jobChanged(j.id);
    startNext();
    return j.id;
}

int TrainingQueue::follow(const QString& runDir) {
    const RunDirectorySnapshot snap = readRunDirectory(runDir.toStdString());
    TrainingJob j;
    j.id = nextId_++;
    j.runDir = QFileInfo(runDir).absoluteFilePath();
    j.followed = true;
    j.state = JobState::Following;
    j.config = snap.config;
    j.iterations = snap.config.value("lols", nlohmann::json::object()).value("iterations", 0);
    jobs_.push_back(j);
    watcher_->addPath(j.runDir);
    if (QFileInfo::exists(j.runDir + "/log.jsonl")) watcher_->addPath(j.runDir + "/log.jsonl");
    pollTimer_->start();
    emit jobChanged(j.id);
    poll();
    return j.id;
}

void TrainingQueue::poll() {
    for (std::size_t x = 0; x < jobs_.size(); ++x) {
        if (jobs_[x].state != JobState::Following) continue;
        const int id = jobs_[x].id;
        RunDirectorySnapshot snap;
        try {
            snap = readRunDirectory(jobs_[x].runDir.toStdString());
        } catch (const std::exception&) {
            continue; // being rewritten: try again at the next tick
        }
        TrainingJob& j = jobs_[x];
        if (QFileInfo::exists(j.runDir + "/log.jsonl") &&
            !watcher_->files().contains(j.runDir + "/log.jsonl"))
            watcher_->addPath(j.runDir + "/log.jsonl");
        j.iterations =
            snap.config.value("lols", nlohmann::json::object()).value("iterations", j.iterations);
        const std::size_t known = j.log.size();
        for (std::size_t r = known; r < snap.log.size(); ++r) {
            j.log.push_back(snap.log[r]);
            emit iterationCommitted(id, j.runDir, snap.log[r], snap.config);
        }
        if (!snap.log.empty() && snap.log.back().iteration >= j.iterations)
            jobs_[x].state = JobState::Finished;
        if (jobs_[x].log.size() != known || jobs_[x].state != JobState::Following)
            emit jobChanged(id);
    }
}

void TrainingQueue::cancel(int id) {
    for (auto it = pending_.begin(); it != pending_.end(); ++it)
        if (it->first == id) {
            pending_.erase(it);
            if (auto* j = find(id)) j->state = JobState::Cancelled;
            emit jobChanged(id);
            return;
        }
    if (id == running_) {
        task_->cancel(); // the job shows "cancelling…" through stateChanged
        return;
    }
    if (auto* j = find(id); j && j->state == JobState::Following) {
        j->state = JobState::Cancelled; // stop following
        emit jobChanged(id);
    }
}

void TrainingQueue::cancelAll() {
    while (!pending_.empty())
        cancel(pending_.front().first);
    if (running_ >= 0) cancel(running_);
}

bool TrainingQueue::waitForIdle(int timeoutMs) {
    return processEventsUntil([this] { return !busy(); }, timeoutMs);
}

void TrainingQueue::startNext() {
    if (task_->isRunning() || pending_.empty()) return;
    auto [id, spec] = pending_.front();
    pending_.erase(pending_.begin());
    running_ = id;
    if (auto* j = find(id)) {
        j->state = JobState::Running;
        j->elapsedSeconds = 0;
        j->progress = {};
    }
    emit jobChanged(id);
    if (iterationStart_.size() <= static_cast<std::size_t>(id))
        iterationStart_.resize(static_cast<std::size_t>(id) + 1);
    iterationStart_[static_cast<std::size_t>(id)] = nowSeconds();

    // The worker: a thin shell around core's runLols, as `prunescope-cli lols` is.
    task_->start([this, id, spec](const Progress& progress) {
        RunDirectory rd = RunDirectory::create(spec.out.toStdString(), newLolsRunConfig(spec.run));
        const nlohmann::json config = rd.config();
        task_->post([this, id, config] {
            if (auto* j = find(id)) j->config = config;
        });
        const LolsRunInputs in = loadLolsRunInputs(config, progress);
        LolsRunOptions opt;
        opt.threads = spec.run.lols.threads;
        opt.onCommit = [this, id](const LolsState& st) {
            task_->post([this, id, r = st.log.back()] { onCommitted(id, r); });
        };
        if (runLols(rd, in, opt, progress).cancelled) throw Cancelled();
    });
}

void TrainingQueue::updateEta(TrainingJob& j) {
    const double start = iterationStart_[static_cast<std::size_t>(j.id)];
    const double inIteration = nowSeconds() - start;
    double perIteration = -1;
    double sum = 0;
    int n = 0;
    for (const auto& r : j.log)
        if (r.iteration > 0) sum += r.seconds, ++n;
    if (n > 0)
        perIteration = sum / n;
    else if (j.progress.step > 0 && j.progress.phase == "rollouts" && j.progress.done > 0)
        perIteration = 1.25 * inIteration * static_cast<double>(j.progress.total) /
                       static_cast<double>(j.progress.done); // rollouts dominate
    const int current = std::max(0, j.progress.step);
    if (perIteration < 0) {
        j.etaSeconds = -1;
        return;
    }
    j.etaSeconds = std::max(0.0, perIteration * (j.iterations - current + 1) - inIteration);
}

void TrainingQueue::onProgress(int id, const ProgressUpdate& p) {
    TrainingJob* j = find(id);
    if (!j || (j->state != JobState::Running && j->state != JobState::Cancelling)) return;
    j->progress = p;
    updateEta(*j);
    emit jobChanged(id);
}

void TrainingQueue::onCommitted(int id, LolsIterationRecord r) {
    TrainingJob* j = find(id);
    if (!j) return;
    iterationStart_[static_cast<std::size_t>(id)] = nowSeconds();
    j->log.push_back(r);
    j->progress = {};
    j->progress.phase = "committed";
    j->progress.done = j->progress.total = 1;
    j->progress.step = r.iteration;
    j->progress.steps = j->iterations;
    updateEta(*j);
    emit iterationCommitted(id, j->runDir, r, j->config);
    emit jobChanged(id);
}

void TrainingQueue::onFinished(int id, bool cancelled, QString error) {
    running_ = -1;
    if (TrainingJob* j = find(id)) {
        j->state = !error.isEmpty() ? JobState::Failed
                   : cancelled      ? JobState::Cancelled
                                    : JobState::Finished;
        j->error = error;
        j->etaSeconds = -1;
    }
    emit jobChanged(id);
    startNext();
}

} // namespace prunescope::gui
