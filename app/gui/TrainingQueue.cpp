// Background LOLS runs (Vieira & Eisner 2017, sec. 4 Alg. 2): see TrainingQueue.h.
#include "app/gui/TrainingQueue.h"

#include "core/policy/Baseline.h"
#include "core/util/Error.h"
#include "core/grammar/GrammarFile.h"
#include "core/lols/LolsRun.h"
#include "core/treebank/Normalize.h"
#include "core/lols/RunDirectory.h"
#include "core/treebank/TreebankReader.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QThread>
#include <QTimer>

#include <chrono>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#include <cmath>
#include <mutex>

namespace prunescope::gui {

namespace {

double nowSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string abs(const QString& p) { return QFileInfo(p).absoluteFilePath().toStdString(); }

} // namespace

QString jobStateName(JobState s) {
    switch (s) {
        case JobState::Queued: return "queued";
        case JobState::Running: return "running";
        case JobState::Following: return "following";
        case JobState::Finished: return "finished";
        case JobState::Cancelled: return "cancelled";
        default: return "failed";
    }
}

nlohmann::json lolsRunConfig(const LolsJobSpec& s, const Policy& init) {
    LolsConfig c = s.lols;
    c.threads = 0;  // never affects results; not recorded (as the CLI)
    return {{"lols", c.toJson()},
            {"grammar", abs(s.grammar)},
            {"init", abs(s.init)},
            {"train", abs(s.train)},
            {"dev", abs(s.dev)},
            {"maxLength", s.maxLength},
            {"trainLimit", s.trainLimit},
            {"devLimit", s.devLimit},
            {"q0", s.q0 ? nlohmann::json{{"positiveWeight", init.meta.training.value("positiveWeight", 1.0)},
                                         {"scale", s.q0Scale}}
                        : nlohmann::json(nullptr)}};
}

TrainingQueue::TrainingQueue(QObject* parent) : QObject(parent) {
    qRegisterMetaType<prunescope::LolsIterationRecord>();
    pollTimer_ = new QTimer(this);
    pollTimer_->setInterval(1000);
    connect(pollTimer_, &QTimer::timeout, this, &TrainingQueue::poll);
    watcher_ = new QFileSystemWatcher(this);
    connect(watcher_, &QFileSystemWatcher::fileChanged, this, &TrainingQueue::poll);
    connect(watcher_, &QFileSystemWatcher::directoryChanged, this, &TrainingQueue::poll);
}

TrainingQueue::~TrainingQueue() {
    pending_.clear();
    if (cancel_) *cancel_ = true;
    if (thread_) thread_->wait();
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

bool TrainingQueue::busy() const { return thread_ != nullptr || !pending_.empty(); }

int TrainingQueue::enqueue(const LolsJobSpec& spec) {
    TrainingJob j;
    j.id = nextId_++;
    j.runDir = QFileInfo(spec.out).absoluteFilePath();
    j.iterations = spec.lols.iterations;
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
            continue;  // being rewritten: try again at the next tick
        }
        TrainingJob& j = jobs_[x];
        if (QFileInfo::exists(j.runDir + "/log.jsonl") && !watcher_->files().contains(j.runDir + "/log.jsonl"))
            watcher_->addPath(j.runDir + "/log.jsonl");
        j.iterations = snap.config.value("lols", nlohmann::json::object()).value("iterations", j.iterations);
        const std::size_t known = j.log.size();
        for (std::size_t r = known; r < snap.log.size(); ++r) {
            j.log.push_back(snap.log[r]);
            emit iterationCommitted(id, j.runDir, snap.log[r], snap.config);
        }
        if (!snap.log.empty() && snap.log.back().iteration >= j.iterations) jobs_[x].state = JobState::Finished;
        if (jobs_[x].log.size() != known || jobs_[x].state != JobState::Following) emit jobChanged(id);
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
    if (id == running_ && cancel_) {
        *cancel_ = true;
        return;
    }
    if (auto* j = find(id); j && j->state == JobState::Following) {
        j->state = JobState::Cancelled;  // stop following
        emit jobChanged(id);
    }
}

void TrainingQueue::cancelAll() {
    while (!pending_.empty()) cancel(pending_.front().first);
    if (running_ >= 0) cancel(running_);
}

bool TrainingQueue::waitForIdle(int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (busy() && t.elapsed() < timeoutMs) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return !busy();
}

void TrainingQueue::startNext() {
    if (thread_ || pending_.empty()) return;
    auto [id, spec] = pending_.front();
    pending_.erase(pending_.begin());
    running_ = id;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    if (auto* j = find(id)) {
        j->state = JobState::Running;
        j->elapsedSeconds = 0;
    }
    emit jobChanged(id);
    if (iterationStart_.size() <= static_cast<std::size_t>(id)) iterationStart_.resize(static_cast<std::size_t>(id) + 1);
    iterationStart_[static_cast<std::size_t>(id)] = nowSeconds();

    auto cancel = cancel_;
    thread_ = QThread::create([this, id, spec, cancel]() mutable {
#ifdef __linux__
        // Lower this thread's nice value (inherited by the trainer's worker threads) so the GUI
        // thread wins the cores whenever it has work: QThread::LowPriority does not change it.
        setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
        auto post = [this](auto fn) { QMetaObject::invokeMethod(this, std::move(fn), Qt::QueuedConnection); };
        std::mutex m;
        double lastPost = 0;
        const LolsProgressCallback progress = [&](const LolsProgress& p) {
            std::lock_guard lock(m);
            const double now = nowSeconds();
            if (now - lastPost < 0.1 && p.done != p.total) return;  // at most ~10 updates per second
            lastPost = now;
            post([this, id, p] { onProgress(id, p); });
        };
        try {
            const Policy init = loadPolicy(spec.init.toStdString());
            if (std::isnan(spec.lols.lambda)) spec.lols.lambda = init.meta.lambda;
            if (std::isnan(spec.lols.lambda))
                throw std::invalid_argument("no lambda given and the initial policy records none");
            if (init.meta.training.contains("l2")) spec.lols.logreg.l2 = init.meta.training["l2"].get<double>();
            RunDirectory rd = RunDirectory::create(spec.out.toStdString(), lolsRunConfig(spec, init));
            const nlohmann::json config = rd.config();
            post([this, id, config] {
                if (auto* j = find(id)) j->config = config;
            });
            LolsConfig cfg = LolsConfig::fromJson(config.at("lols"));
            cfg.threads = spec.lols.threads;
            LolsRunInputs in = loadLolsRunInputs(config); // as `prunescope-cli lols` builds them
            LolsTrainer trainer(in.grammar, std::move(in.train), std::move(in.dev), cfg);
            AggregatedDataset q0 = initialDataset(in, trainer.train().size(), config);
            LolsState st = trainer.start(init, std::move(q0), cancel.get(), progress);
            if (*cancel) return post([this, id] { onFinished(id, true, {}); });
            rd.commit(st);
            post([this, id, r = st.log.back()] { onCommitted(id, r); });
            while (st.iteration < cfg.iterations) {
                if (!trainer.step(st, cancel.get(), progress)) return post([this, id] { onFinished(id, true, {}); });
                rd.commit(st);
                post([this, id, r = st.log.back()] { onCommitted(id, r); });
            }
            post([this, id] { onFinished(id, false, {}); });
        } catch (const std::exception& e) {
            post([this, id, msg = QString::fromStdString(e.what())] { onFinished(id, false, msg); });
        }
    });
    thread_->start(QThread::LowPriority);
}

void TrainingQueue::updateEta(TrainingJob& j) {
    const double start = iterationStart_[static_cast<std::size_t>(j.id)];
    const double inIteration = nowSeconds() - start;
    double perIteration = -1;
    double sum = 0;
    int n = 0;
    for (const auto& r : j.log)
        if (r.iteration > 0) sum += r.seconds, ++n;
    if (n > 0) perIteration = sum / n;
    else if (j.progress.iteration > 0 && j.progress.phase == "rollouts" && j.progress.done > 0)
        perIteration = 1.25 * inIteration * j.progress.total / j.progress.done;  // rollouts dominate
    const int current = j.progress.iteration;
    if (perIteration < 0) {
        j.etaSeconds = -1;
        return;
    }
    j.etaSeconds = std::max(0.0, perIteration * (j.iterations - current + 1) - inIteration);
}

void TrainingQueue::onProgress(int id, LolsProgress p) {
    TrainingJob* j = find(id);
    if (!j || j->state != JobState::Running) return;
    j->progress = p;
    updateEta(*j);
    emit jobChanged(id);
}

void TrainingQueue::onCommitted(int id, LolsIterationRecord r) {
    TrainingJob* j = find(id);
    if (!j) return;
    iterationStart_[static_cast<std::size_t>(id)] = nowSeconds();
    j->log.push_back(r);
    j->progress = {r.iteration, "committed", 1, 1};
    updateEta(*j);
    emit iterationCommitted(id, j->runDir, r, j->config);
    emit jobChanged(id);
}

void TrainingQueue::onFinished(int id, bool cancelled, QString error) {
    if (thread_) {
        thread_->wait();
        thread_->deleteLater();
        thread_ = nullptr;
    }
    running_ = -1;
    cancel_.reset();
    if (TrainingJob* j = find(id)) {
        j->state = !error.isEmpty() ? JobState::Failed : cancelled ? JobState::Cancelled : JobState::Finished;
        j->error = error;
        j->etaSeconds = -1;
    }
    emit jobChanged(id);
    startNext();
}

} // namespace prunescope::gui
