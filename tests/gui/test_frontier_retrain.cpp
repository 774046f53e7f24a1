// GUI and CLI tests of "every frontier point can be loaded and exported, or the window says why
// not and offers to retrain it" (Vieira & Eisner 2017, sec. 7 ¬) on the bundled baseline frontier
// (ptb-sample train/dev): a point written without its policy file offers "Retrain this point…",
// whose dialog gets exactly the recorded settings; the retrain writes a policy and the point
// becomes loadable and exportable; declining starts nothing; a point without recorded settings
// says so; `prunescope-cli frontier-retrain` prints the same settings and command.
#include "app/gui/frontier/FrontierWindow.h"
#include "app/gui/frontier/RetrainDialog.h"
#include "core/frontier/FrontierFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTimer>

#include <filesystem>

using namespace prunescope;
using namespace prunescope::gui;
namespace fs = std::filesystem;

namespace {
// Moves the slider until the selected point has no policy file; its id, or "" if none does.
QString selectPointWithoutPolicy(FrontierWindow& w, const QString& prefer = QString()) {
    QString found;
    for (int pos = 0; pos <= widgets::LambdaSlider::kSteps; ++pos) {
        w.slider()->slider()->setValue(pos);
        const int ri = w.selectedRecord();
        if (ri < 0) continue;
        const PolicyRecord& r = w.model().records()[static_cast<std::size_t>(ri)];
        if (r.policyPath.isEmpty() && r.kind == widgets::PlotPolicyKind::Baseline) {
            if (prefer.isEmpty() || r.id == prefer) return r.id;
            if (found.isEmpty()) found = r.id;
        }
    }
    if (!found.isEmpty()) return selectPointWithoutPolicy(w, found);
    return QString();
}
} // namespace

class TestFrontierRetrain : public QObject {
    Q_OBJECT
    QString frontier_, dir_;
    QByteArray frontierBytes_;

  private slots:
    void initTestCase() {
        frontier_ =
            QString::fromStdString(testdata::sourceDir()) + "/samples/policies/frontier.json";
        dir_ = QString::fromStdString(testdata::tempDir("frontier_retrain"));
        QFile f(frontier_);
        QVERIFY(f.open(QIODevice::ReadOnly));
        frontierBytes_ = f.readAll();
        qputenv("PRUNESCOPE_DATA_DIR", QByteArray::fromStdString(testdata::dataDir()));
    }

    void retrainMakesThePointLoadable() {
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(frontier_));
        const QString id = selectPointWithoutPolicy(w, "baseline-w64");
        QVERIFY2(!id.isEmpty(),
                 "no selectable point without a policy file in the bundled frontier");
        auto* retrain = w.findChild<QPushButton*>("retrainPoint");
        QVERIFY(retrain);
        QVERIFY(!w.selectionProblem().isEmpty());
        QVERIFY2(w.retrainProblem().isEmpty(), qPrintable(w.retrainProblem()));
        QVERIFY(retrain->isEnabled());
        QVERIFY(!retrain->isHidden());

        // The recorded settings, read here from the file independently of BaselineRetrain.
        const FrontierData d = loadFrontier(frontier_.toStdString());
        const FrontierEntry* rec = nullptr;
        for (const auto& e : d.points)
            if (e.id == id.toStdString()) rec = &e;
        QVERIFY(rec);

        // Declining the dialog starts nothing.
        int asked = 0;
        w.setRetrainDialogFunction(
            [&](QWidget*, const BaselineRetrainSettings&, QString&) { return ++asked, false; });
        QVERIFY(!w.retrainSelected());
        QCOMPARE(asked, 1);
        QVERIFY(!w.retrainTask()->isRunning());

        BaselineRetrainSettings seen;
        QString defaultOut;
        const QString out = dir_ + "/retrained";
        w.setRetrainDialogFunction(
            [&](QWidget*, const BaselineRetrainSettings& s, QString& outDir) {
                seen = s;
                defaultOut = outDir;
                outDir = out;
                return true;
            });
        QSignalSpy done(&w, &FrontierWindow::pointRetrained);
        retrain->click();
        QCOMPARE(seen.pointId, id.toStdString());
        QCOMPARE(seen.positiveWeight, rec->training.at("positiveWeight").get<double>());
        QCOMPARE(seen.l2, rec->training.at("l2").get<double>());
        QCOMPARE(seen.trainSentences, d.info.at("train").at("firstTrees").get<int>());
        QCOMPARE(seen.maxTrainLength, d.info.at("train").at("maxLength").get<int>());
        QCOMPARE(seen.maxDevLength, d.evaluation.at("maxLength").get<int>());
        QVERIFY(fs::equivalent(seen.train, testdata::dataDir() + "/ptb-sample/train"));
        QVERIFY(fs::equivalent(seen.dev, testdata::dataDir() + "/ptb-sample/dev"));
        QVERIFY(fs::equivalent(seen.grammar, testdata::sourceDir() + "/samples/grammar.gram"));
        QVERIFY(!defaultOut.isEmpty());
        QVERIFY(!retrain->isEnabled()); // one retrain at a time
        QVERIFY(w.retrainTask()->waitForDone(600000));
        QCOMPARE(done.count(), 1);
        const QString path = done.at(0).at(1).toString();
        QCOMPARE(QFileInfo(path).absoluteFilePath(),
                 QFileInfo(out + "/" + id + ".json").absoluteFilePath());
        QVERIFY(QFileInfo::exists(path));

        // The same selection is now loadable and exportable.
        QCOMPARE(w.model().records()[static_cast<std::size_t>(w.selectedRecord())].id, id);
        QVERIFY2(w.selectionProblem().isEmpty(), qPrintable(w.selectionProblem()));
        QVERIFY(retrain->isHidden());
        const Policy p = w.exportedPolicy();
        QCOMPARE(QString::fromStdString(p.meta.name), id);
        QVERIFY(p.weights.size() > 0);
        const Policy saved = loadPolicy(path.toStdString());
        QCOMPARE(saved.meta.training.value("positiveWeight", 0.0), seen.positiveWeight);
        // Same data and settings, trained from zero instead of warm-started: the same optimum up
        // to L-BFGS's tolerance, so the dev F1 matches the recorded one closely.
        const double recordedF1 = 100 * rec->metrics.at("f1").get<double>();
        const double newF1 = 100 * saved.meta.devMetrics.value("f1", 0.0);
        qInfo("%s: recorded F1 %.2f, retrained F1 %.2f; mpush %.5f vs %.5f", qPrintable(id),
              recordedF1, newF1, rec->metrics.at("meanMpush").get<double>(),
              saved.meta.devMetrics.value("meanMpush", 0.0));
        QVERIFY2(std::abs(newF1 - recordedF1) < 2.0,
                 qPrintable(QString("%1 vs %2").arg(newF1).arg(recordedF1)));
        QString err;
        QVERIFY2(w.exportSelected(dir_ + "/exported.json", &err), qPrintable(err));

        // The bundled frontier file was not touched (the policy went to another folder).
        QFile f(frontier_);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), frontierBytes_);
    }

    void pointWithoutSettingsSaysSo() {
        FrontierData d = loadFrontier(frontier_.toStdString());
        for (auto& e : d.points)
            e.training = nlohmann::json::object(); // recorded without settings
        const QString copy = dir_ + "/no-settings/frontier.json";
        QDir().mkpath(QFileInfo(copy).absolutePath());
        saveFrontier(d, copy.toStdString());
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(copy));
        QVERIFY(!selectPointWithoutPolicy(w).isEmpty());
        auto* retrain = w.findChild<QPushButton*>("retrainPoint");
        QVERIFY(!retrain->isEnabled());
        QVERIFY2(w.retrainProblem().contains("no recorded training settings"),
                 qPrintable(w.retrainProblem()));
        QVERIFY(retrain->toolTip().contains("no recorded training settings"));
        QVERIFY(!w.retrainSelected());
        bool said = false;
        for (auto* l : w.findChildren<QLabel*>())
            said = said || l->text().contains("Cannot retrain: ");
        QVERIFY(said);
    }

    void cliPrintsTheRecordedCommand() {
        const auto r = testdata::runCli(
            {"frontier-retrain", "--frontier", frontier_, "--point", "baseline-w64"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("prunescope-cli baseline --grammar "), qPrintable(r.out));
        QVERIFY2(r.out.contains(" --weights 64 --l2 0.0001220703125 --max-train-len 40 "
                                "--max-dev-len 40 --max-train-sentences 100 --out OUT"),
                 qPrintable(r.out));
        const auto bad = testdata::runCli(
            {"frontier-retrain", "--frontier", frontier_, "--point", "baseline-w3"});
        QVERIFY(bad.exitCode != 0);
        QVERIFY2(bad.err.contains("baseline-w3 is not a point"), qPrintable(bad.err));
    }
    // The dialog both retrain kinds share: rows, the output field, the command kept in step with
    // it, Retrain returns the edited folder, Cancel keeps the old one.
    void retrainDialogKeepsTheCommandInStep() {
        for (const bool accept : {true, false}) {
            RetrainDialog d(nullptr, "baseline-w16", "intro line");
            d.row("l2", "0.5");
            QString shown, after;
            QTimer::singleShot(0, [&] {
                auto* dlg = qobject_cast<QDialog*>(QApplication::activeModalWidget());
                QVERIFY(dlg);
                auto* cmd = dlg->findChild<QPlainTextEdit*>();
                auto* out = dlg->findChild<QLineEdit*>();
                QVERIFY(cmd && out);
                shown = cmd->toPlainText();
                out->setText("/tmp/new place");
                after = cmd->toPlainText();
                auto* box = dlg->findChild<QDialogButtonBox*>();
                QCOMPARE(box->button(QDialogButtonBox::Ok)->text(), QString("Retrain"));
                (accept ? box->button(QDialogButtonBox::Ok) : box->button(QDialogButtonBox::Cancel))
                    ->click();
            });
            QString dir = "/tmp/old";
            const bool ok = d.exec(
                "write the policy to", QString(), dir,
                [](const std::string& o) { return "prunescope-cli baseline --out '" + o + "'"; },
                "a note");
            QCOMPARE(shown, QString("prunescope-cli baseline --out '/tmp/old'"));
            QCOMPARE(after, QString("prunescope-cli baseline --out '/tmp/new place'"));
            QCOMPARE(ok, accept);
            QCOMPARE(dir, accept ? QString("/tmp/new place") : QString("/tmp/old"));
        }
    }
};

PRUNESCOPE_QTEST_MAIN(TestFrontierRetrain)
#include "test_frontier_retrain.moc"
