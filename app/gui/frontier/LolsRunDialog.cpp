// LOLS run dialog (Vieira & Eisner 2017, sec. 4 Alg. 2): see LolsRunDialog.h.
#include "app/gui/frontier/LolsRunDialog.h"

#include "core/lols/RunConfig.h"
#include "core/policy/LogisticRegression.h"
#include "core/rollout/Rollout.h"
#include "core/util/DataDir.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleValidator>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QThread>

namespace prunescope::gui {

namespace {
QWidget* withBrowse(QLineEdit* edit, bool directory, const QString& caption, QWidget* parent) {
    auto* w = new QWidget(parent);
    auto* lay = new QHBoxLayout(w);
    lay->setContentsMargins(0, 0, 0, 0);
    auto* b = new QPushButton("…", w);
    b->setAccessibleName("browse: " + caption);
    b->setMaximumWidth(32);
    lay->addWidget(edit, 1);
    lay->addWidget(b);
    QObject::connect(b, &QPushButton::clicked, w, [edit, directory, caption, w] {
        const QString p = directory ? QFileDialog::getExistingDirectory(w, caption, edit->text())
                                    : QFileDialog::getOpenFileName(w, caption, edit->text());
        if (!p.isEmpty()) edit->setText(p);
    });
    return w;
}

QSpinBox* spin(int lo, int hi, int v, QWidget* parent) {
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    s->setValue(v);
    return s;
}
} // namespace

LolsRunDialog::LolsRunDialog(const LolsDialogDefaults& d, QWidget* parent) : QDialog(parent) {
    setWindowTitle("Train with LOLS");
    auto* form = new QFormLayout;
    init_ = new QComboBox(this);
    init_->setEditable(true);
    init_->addItems(d.policies);
    init_->setMinimumWidth(420);
    form->addRow("Starting policy", init_);
    lambda_ = new QLineEdit(QString::number(d.lambdaCp, 'g', 6), this);
    lambda_->setValidator(new QDoubleValidator(0, 1e12, 12, lambda_));
    lambda_->setToolTip("reward = accuracy - lambda * runtime in the surrogate's units (sec. 7); "
                        "preset from the selected frontier point");
    form->addRow(QString::fromUtf8("\u03bb (surrogate units)"), lambda_);
    surrogate_ = new QComboBox(this);
    surrogate_->addItem("rCP: 1-best F1 − λ·constituents (change propagation)", "rcp");
    surrogate_->addItem("rDP: expected recall − λ·spans kept (inside-outside)", "rdp");
    form->addRow("Surrogate reward", surrogate_);
    connect(surrogate_, &QComboBox::currentIndexChanged, this, [this, d](int i) {
        lambda_->setText(QString::number(i == 0 ? d.lambdaCp : d.lambdaDp, 'g', 6));
    });
    iterations_ = spin(1, 1000, 10, this);
    form->addRow("Iterations", iterations_);
    minibatch_ = spin(1, 100000, 100, this);
    form->addRow("Minibatch (sentences)", minibatch_);
    threads_ = spin(1, 256, std::max(1, QThread::idealThreadCount() - 1), this);
    threads_->setToolTip(
        "Worker threads; one core is left for the interface. Results do not depend on it.");
    form->addRow("Threads", threads_);
    lbfgsMaxIterations_ = spin(1, 1000000, LogRegOptions{}.maxIterations, this);
    lbfgsMaxIterations_->setToolTip(
        "Cap on L-BFGS iterations in each iteration's retraining (warm-started from the "
        "previous policy); lower is faster (prunescope-cli lols --lbfgs-max-iterations; "
        "docs/benchmarks.md, issue 16)");
    form->addRow("L-BFGS iterations per retraining", lbfgsMaxIterations_);
    lbfgsAfterFirst_ = spin(0, 1000000, LolsConfig{}.lbfgsMaxIterationsAfterFirst, this);
    lbfgsAfterFirst_->setSpecialValueText("off (as above)");
    lbfgsAfterFirst_->setToolTip(
        "Cap on L-BFGS iterations in the retraining of iterations 2, 3, …, which start from "
        "a policy trained on nearly the same data; default 5, chosen on dev: nearly the same "
        "reward at a quarter of the retraining time (prunescope-cli lols "
        "--lbfgs-max-iterations-after-first; docs/lols.md)");
    form->addRow("… from iteration 2 on", lbfgsAfterFirst_);
    grammar_ = new QLineEdit(d.grammar, this);
    form->addRow("Grammar", withBrowse(grammar_, false, "Grammar", this));
    train_ = new QLineEdit(d.train, this);
    form->addRow("Training treebank", withBrowse(train_, true, "Training treebank", this));
    trainLimit_ = spin(0, 1000000, 0, this);
    trainLimit_->setSpecialValueText("all");
    form->addRow("Training sentences", trainLimit_);
    dev_ = new QLineEdit(d.dev, this);
    form->addRow("Dev treebank", withBrowse(dev_, true, "Development treebank", this));
    devLimit_ = spin(0, 1000000, 0, this);
    devLimit_->setSpecialValueText("all");
    form->addRow("Dev sentences", devLimit_);
    maxLen_ = spin(0, 1000, 40, this);
    form->addRow("Max sentence length", maxLen_);
    out_ = new QLineEdit(d.outDir, this);
    form->addRow("New run directory", withBrowse(out_, true, "Run directory", this));
    train_->setObjectName("lolsTrain");
    dev_->setObjectName("lolsDev");
    // Training and evaluating on the same sentences measures memorization, not the policy: said
    // as soon as both name one treebank (issue 42: the bundled sample filled both).
    sameData_ = new QLabel(this);
    sameData_->setObjectName("sameDataWarning");
    sameData_->setWordWrap(true);
    sameData_->setStyleSheet("color: #b35806");
    form->addRow(sameData_);
    for (QLineEdit* e : {train_, dev_})
        connect(e, &QLineEdit::textChanged, this, [this] {
            sameData_->setText(sameDataWarning());
            sameData_->setVisible(!sameData_->text().isEmpty());
        });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText("Queue run");
    auto* classroom =
        buttons->addButton("Classroom Run (under a minute)", QDialogButtonBox::ActionRole);
    classroom->setObjectName("classroomPreset");
    classroom->setToolTip("rDP, 5 iterations of 40 sentences from the first 400 training "
                          "sentences, L-BFGS capped at 50 then 5 iterations, evaluated on all of "
                          "dev within 40 words (so its points sit beside the baselines'); about "
                          "30 s on two cores (docs/benchmarks.md)");
    connect(classroom, &QPushButton::clicked, this, &LolsRunDialog::applyClassroomPreset);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        const QString problem = validate();
        if (problem.isEmpty())
            accept();
        else
            QMessageBox::warning(this, "Train with LOLS", problem);
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* lay = new QVBoxLayout(this);
    lay->addLayout(form);
    lay->addWidget(buttons);
    prefill(d);
    sameData_->setText(sameDataWarning());
    sameData_->setVisible(!sameData_->text().isEmpty());
}

QString LolsRunDialog::sameDataWarning() const {
    auto canonical = [](const QString& p) {
        const QFileInfo info(p.trimmed());
        const QString c = info.canonicalFilePath();
        return c.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : c;
    };
    if (train_->text().trimmed().isEmpty() || canonical(train_->text()) != canonical(dev_->text()))
        return {};
    return "Warning: the training and dev treebanks are the same: the dev F1 and runtime then "
           "measure the sentences the policy was trained on, not new ones. Choose another dev "
           "treebank to compare the run with the frontier's baselines.";
}

namespace {
constexpr const char* kGroup = "lolsDialog";

// ptb-sample/dev opened -> (ptb-sample/train, ptb-sample/dev); any other treebank -> (it, it).
std::pair<QString, QString> treebanksFrom(const QString& opened) {
    const QFileInfo fi(opened);
    if (!fi.exists()) return {};
    const QDir parent = fi.absoluteDir();
    const QString name = fi.fileName();
    if (fi.isDir() && (name == "train" || name == "dev" || name == "test") &&
        parent.exists("train") && parent.exists("dev"))
        return {parent.filePath("train"), parent.filePath("dev")};
    return {fi.absoluteFilePath(), fi.absoluteFilePath()};
}
} // namespace

QString LolsRunDialog::freeRunDir(const QString& dir) {
    if (dir.isEmpty()) return dir;
    auto free = [](const QString& p) {
        return !QFileInfo::exists(p) || (QFileInfo(p).isDir() && QDir(p).isEmpty());
    };
    if (free(dir)) return dir;
    for (int n = 2;; ++n)
        if (const QString p = QString("%1-%2").arg(dir).arg(n); free(p)) return p;
}

void LolsRunDialog::prefill(const LolsDialogDefaults& d) {
    QSettings s;
    s.beginGroup(kGroup);
    if (train_->text().isEmpty() && dev_->text().isEmpty()) {
        QString opened = d.treebank;
        if (opened.isEmpty()) opened = QSettings().value("lastSentences").toString();
        auto [train, dev] = treebanksFrom(opened);
        const std::string data = dataDirFromEnvironment();
        if (train.isEmpty() && !data.empty()) // else the data folder's PTB sample
            std::tie(train, dev) =
                treebanksFrom(QDir(QString::fromStdString(data)).filePath("ptb-sample/dev"));
        train_->setText(train);
        dev_->setText(dev);
    }
    const QString lastRun =
        d.lastRunDir.isEmpty() ? s.value("lastRunDir").toString() : d.lastRunDir;
    if (!lastRun.isEmpty() && QFileInfo(QDir(lastRun).filePath("config.json")).isFile()) {
        try {
            const nlohmann::json c =
                readRunConfig(QDir(lastRun).filePath("config.json").toStdString());
            const nlohmann::json lols = c.value("lols", nlohmann::json::object());
            grammar_->setText(
                QString::fromStdString(c.value("grammar", grammar_->text().toStdString())));
            train_->setText(QString::fromStdString(c.value("train", train_->text().toStdString())));
            dev_->setText(QString::fromStdString(c.value("dev", dev_->text().toStdString())));
            trainLimit_->setValue(c.value("trainLimit", trainLimit_->value()));
            devLimit_->setValue(c.value("devLimit", devLimit_->value()));
            maxLen_->setValue(c.value("maxLength", maxLen_->value()));
            iterations_->setValue(lols.value("iterations", iterations_->value()));
            minibatch_->setValue(lols.value("minibatch", minibatch_->value()));
            lbfgsMaxIterations_->setValue(
                lols.value("lbfgsMaxIterations", lbfgsMaxIterations_->value()));
            lbfgsAfterFirst_->setValue(
                lols.value("lbfgsMaxIterationsAfterFirst", 0)); // absent = off
            const int si = surrogate_->findData(
                QString::fromStdString(lols.value("surrogate", std::string())));
            if (si >= 0) surrogate_->setCurrentIndex(si);
            if (out_->text().isEmpty()) out_->setText(QFileInfo(lastRun).absoluteFilePath());
        } catch (const std::exception&) {
            // an unreadable config.json: keep the other sources (the run list reports the error)
        }
    }
    auto text = [&s](QLineEdit* e, const char* key) {
        if (s.contains(key)) e->setText(s.value(key).toString());
    };
    auto number = [&s](QSpinBox* b, const char* key) {
        if (s.contains(key)) b->setValue(s.value(key).toInt());
    };
    text(grammar_, "grammar");
    text(train_, "train");
    text(dev_, "dev");
    number(iterations_, "iterations");
    number(minibatch_, "minibatch");
    number(threads_, "threads");
    number(lbfgsMaxIterations_, "lbfgsMaxIterations");
    // A new key: the old one ("lbfgsMaxIterationsAfterFirst") mostly holds the 0 of the time the
    // cap was opt-in, which would hide the default chosen on dev (issue 45).
    number(lbfgsAfterFirst_, "lbfgsCapAfterFirst");
    number(trainLimit_, "trainLimit");
    number(devLimit_, "devLimit");
    number(maxLen_, "maxLength");
    if (s.contains("surrogate")) {
        const int si = surrogate_->findData(s.value("surrogate").toString());
        if (si >= 0) surrogate_->setCurrentIndex(si);
    }
    if (out_->text().isEmpty()) out_->setText(s.value("outDir").toString());
    out_->setText(freeRunDir(out_->text()));
}

void LolsRunDialog::remember() const {
    QSettings s;
    s.beginGroup(kGroup);
    s.setValue("grammar", grammar_->text());
    s.setValue("train", train_->text());
    s.setValue("dev", dev_->text());
    s.setValue("iterations", iterations_->value());
    s.setValue("minibatch", minibatch_->value());
    s.setValue("threads", threads_->value());
    s.setValue("lbfgsMaxIterations", lbfgsMaxIterations_->value());
    s.setValue("lbfgsCapAfterFirst", lbfgsAfterFirst_->value());
    s.setValue("trainLimit", trainLimit_->value());
    s.setValue("devLimit", devLimit_->value());
    s.setValue("maxLength", maxLen_->value());
    s.setValue("surrogate", surrogate_->currentData().toString());
    s.setValue("outDir", out_->text());
}

void LolsRunDialog::done(int r) {
    remember();
    if (r == QDialog::Accepted) QSettings().setValue(QString(kGroup) + "/lastRunDir", out_->text());
    QDialog::done(r);
}

void LolsRunDialog::applyClassroomPreset() {
    // Switching to rDP presets λ in rDP's units from the selected frontier point, as the combo
    // box does; a λ already in rDP units stays.
    surrogate_->setCurrentIndex(surrogate_->findData("rdp"));
    iterations_->setValue(5);
    minibatch_->setValue(40);
    trainLimit_->setValue(400);
    devLimit_->setValue(0);
    maxLen_->setValue(40);
    lbfgsMaxIterations_->setValue(50);
    lbfgsAfterFirst_->setValue(5);
}

LolsJobSpec LolsRunDialog::spec() const {
    LolsJobSpec s;
    LolsRunSpec& r = s.run;
    r.init = init_->currentText().toStdString();
    r.grammar = grammar_->text().toStdString();
    r.train = train_->text().toStdString();
    r.dev = dev_->text().toStdString();
    r.lols.lambda = lambda_->text().toDouble();
    r.lols.surrogate = surrogateFromName(surrogate_->currentData().toString().toStdString());
    r.lols.iterations = iterations_->value();
    r.lols.minibatch = minibatch_->value();
    r.lols.threads = threads_->value();
    r.lols.logreg.maxIterations = lbfgsMaxIterations_->value();
    r.lols.lbfgsMaxIterationsAfterFirst = lbfgsAfterFirst_->value();
    r.trainLimit = trainLimit_->value();
    r.devLimit = devLimit_->value();
    r.maxLength = maxLen_->value();
    s.out = out_->text();
    return s;
}

QString LolsRunDialog::validate() const {
    const LolsJobSpec s = spec();
    const QString init = QString::fromStdString(s.run.init),
                  grammar = QString::fromStdString(s.run.grammar),
                  train = QString::fromStdString(s.run.train),
                  dev = QString::fromStdString(s.run.dev);
    if (!QFileInfo(init).isFile()) return "The starting policy file does not exist: " + init;
    if (!QFileInfo(grammar).isFile()) return "The grammar file does not exist: " + grammar;
    if (!QFileInfo::exists(train)) return "The training treebank does not exist: " + train;
    if (!QFileInfo::exists(dev)) return "The dev treebank does not exist: " + dev;
    if (s.out.isEmpty()) return "Choose a new run directory.";
    if (QFileInfo::exists(s.out) && !QDir(s.out).isEmpty())
        return "The run directory exists and is not empty: " + s.out;
    return {};
}

} // namespace prunescope::gui
