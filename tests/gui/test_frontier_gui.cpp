// GUI tests of the frontier window (offscreen; Vieira & Eisner 2017, sec. 7 Fig. 2): moving the
// lambda slider highlights the policy a direct argmax of accuracy - lambda * runtime picks,
// dragging the iso-reward line and clicking points, export round trips, plots render.
#include "app/gui/explorer/ExplorerPanel.h"
#include "app/gui/frontier/FrontierWindow.h"
#include "app/gui/window/MainWindow.h"
#include "core/frontier/FrontierFile.h"
#include "support/FrontierTesting.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QSlider>

#include <cmath>
#include <filesystem>
#include <random>

using namespace prunescope;
using namespace prunescope::gui;

namespace {

// A hand-made frontier: 8 baseline policies on a sigmoid-like curve plus two dominated points
// (optimal for no lambda), each with a random sparse policy file.
QString makeFrontier(const QString& dir) {
    QDir().mkpath(dir + "/policies");
    FrontierData d;
    d.grammar = "grammar.gram";
    d.evaluation = {{"split", "dev"}, {"treebank", "hand-made"}, {"maxLength", 40}};
    const double mpush[] = {0.05, 0.09, 0.16, 0.3, 0.55, 1.0, 1.8, 3.2, 0.6, 0.25};
    const double f1[] = {0.40, 0.52, 0.61, 0.67, 0.695, 0.705, 0.709, 0.71, 0.60, 0.60};
    std::mt19937 rng(7);
    for (int i = 0; i < 10; ++i) {
        Policy p;
        for (int k = 0; k < 50; ++k)
            p.weights[static_cast<int>(rng() % kFeatureDim)] =
                float(int(rng() % 200) - 100) / 64.0f;
        p.meta.kind = "baseline";
        p.meta.name = "baseline-p" + std::to_string(i);
        p.meta.training = {{"positiveWeight", std::ldexp(1.0, i - 2)}, {"l2", 1.0 / 8192}};
        const std::string rel = "policies/" + p.meta.name + ".json";
        savePolicy(p, (dir + "/").toStdString() + rel);
        FrontierEntry e;
        e.id = p.meta.name;
        e.policy = rel;
        e.training = p.meta.training;
        e.metrics = {{"f1", f1[i]},
                     {"meanMpush", mpush[i]},
                     {"meanConstituents", 4000 * mpush[i] + 10 * i},
                     {"meanSpansKept", 30 * std::sqrt(mpush[i]) + i}};
        d.points.push_back(e);
    }
    d.unpruned = {
        {"f1", 0.711}, {"meanMpush", 6.0}, {"meanConstituents", 30000.0}, {"meanSpansKept", 400.0}};
    refitFrontier(d, RuntimeMeasure::Mpush);
    const QString path = dir + "/frontier.json";
    saveFrontier(d, path.toStdString());
    return path;
}

void sendMouse(QWidget* w, QEvent::Type t, QPointF pos, Qt::MouseButtons buttons) {
    QMouseEvent e(t, pos, w->mapToGlobal(pos), Qt::LeftButton, buttons, Qt::NoModifier);
    QApplication::sendEvent(w, &e);
}

} // namespace

class TestFrontierGui : public QObject {
    Q_OBJECT
    QString dir_, frontier_;

  private slots:
    void initTestCase() {
        dir_ = QString::fromStdString(testdata::tempDir("frontier_gui"));
        frontier_ = makeFrontier(dir_);
    }

    // The slider has a row of its own, wide enough to drag over five decades (issue 42: it was
    // about 75 px beside the value box and the unit), also at 1024x768.
    void sliderIsWideEnoughToDrag() {
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(frontier_));
        w.resize(1024, 740);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY2(w.slider()->slider()->width() >= widgets::LambdaSlider::kMinimumSliderWidth,
                 qPrintable(QString::number(w.slider()->slider()->width())));
        QVERIFY(w.width() <= 1024);
    }

    void sliderSelectsTheOptimalPolicy() {
        for (RuntimeMeasure m :
             {RuntimeMeasure::Mpush, RuntimeMeasure::Constituents, RuntimeMeasure::SpansKept}) {
            FrontierWindow w(nullptr, false);
            QVERIFY(w.openFrontier(frontier_));
            w.setMeasures(m, AccuracyMeasure::F1);
            QCOMPARE(static_cast<int>(w.view().points.size()), 10);
            QSet<QString> chosen;
            for (int pos = 0; pos <= widgets::LambdaSlider::kSteps; pos += 5) {
                w.slider()->slider()->setValue(pos); // as a user drags it
                const double lambda = w.lambda();
                QCOMPARE(lambda, w.slider()->lambdaAt(pos));
                const int expect = testdata::directBest(w.view().points, lambda);
                QCOMPARE(w.selectedPoint(), expect);
                QCOMPARE(w.plot()->highlighted(), expect);
                chosen.insert(
                    QString::fromStdString(w.view().points[static_cast<std::size_t>(expect)].id));
            }
            // The slider's range reaches both ends of the frontier; the dominated points (p8, p9)
            // are never optimal.
            QVERIFY2(chosen.size() >= 6, qPrintable(QStringList(chosen.values()).join(",")));
            QVERIFY(!chosen.contains("baseline-p8"));
            QVERIFY(!chosen.contains("baseline-p9"));
            QVERIFY(chosen.contains("baseline-p0"));
            QVERIFY(chosen.contains("baseline-p7"));
        }
    }

    void draggingTheIsoRewardLineChangesLambda() {
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(frontier_));
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setLambda(10); // F1 percent per mpush
        auto* plot = w.plot();
        const int sel = w.selectedPoint();
        QVERIFY(sel >= 0);
        // Find the iso-reward line 70 px right of the highlighted point.
        const QPointF p = plot->pointPixel(sel);
        QPointF on(-1, -1);
        for (int y = 0; y < plot->height(); ++y)
            if (plot->isoLineDistance(QPointF(p.x() + 70, y)) < 1.0) on = QPointF(p.x() + 70, y);
        QVERIFY(on.x() > 0);
        const double before = w.lambda();
        sendMouse(plot, QEvent::MouseButtonPress, on, Qt::LeftButton);
        sendMouse(plot, QEvent::MouseMove, on + QPointF(0, -40),
                  Qt::LeftButton); // steeper: larger lambda
        sendMouse(plot, QEvent::MouseButtonRelease, on + QPointF(0, -40), Qt::NoButton);
        QVERIFY2(w.lambda() > before * 1.2,
                 qPrintable(QString("%1 -> %2").arg(before).arg(w.lambda())));
        QCOMPARE(w.selectedPoint(), testdata::directBest(w.view().points, w.lambda()));
    }

    void clickingAPointSelectsIt() {
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(frontier_));
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (int i : {0, 3, 6}) {
            const QPointF pos = w.plot()->pointPixel(i);
            sendMouse(w.plot(), QEvent::MouseButtonPress, pos, Qt::LeftButton);
            sendMouse(w.plot(), QEvent::MouseButtonRelease, pos, Qt::NoButton);
            QCOMPARE(w.selectedPoint(), i);
            QCOMPARE(testdata::directBest(w.view().points, w.lambda()),
                     i); // lambda moved into its optimal range
        }
    }

    void exportLoadsBackIdentically() {
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(frontier_));
        w.setLambda(25);
        const int sel = w.selectedPoint();
        QVERIFY(sel >= 0);
        const QString out = dir_ + "/exported.json";
        QString err;
        QVERIFY2(w.exportSelected(out, &err), qPrintable(err));
        const Policy a = w.exportedPolicy();
        const Policy b = loadPolicy(out.toStdString());
        QCOMPARE(policyToJson(b), policyToJson(a));
        QVERIFY(b.meta == a.meta);
        QCOMPARE(b.meta.lambda, 25.0);
        QCOMPARE(QString::fromStdString(b.meta.lambdaUnit), QString("F1 percent per mpush"));
        // Same weights as the policy file of the selected point; its metrics and provenance.
        const auto& rec = w.model().records()[static_cast<std::size_t>(w.selectedRecord())];
        const Policy orig = loadPolicy(rec.policyPath.toStdString());
        QVERIFY(b.weights == orig.weights);
        QCOMPARE(b.threshold, orig.threshold);
        QCOMPARE(b.meta.devMetrics["f1"].get<double>(),
                 w.view().points[static_cast<std::size_t>(sel)].accuracy);
        QCOMPARE(b.meta.devMetrics["mpush"].get<double>(),
                 w.view().points[static_cast<std::size_t>(sel)].runtime);
        QCOMPARE(QString::fromStdString(b.meta.training["provenance"]["id"].get<std::string>()),
                 rec.id);
        QCOMPARE(b.meta.training["positiveWeight"], orig.meta.training["positiveWeight"]);
        // Exporting again gives the same bytes.
        QVERIFY(w.exportSelected(dir_ + "/exported2.json"));
        QFile f1(out), f2(dir_ + "/exported2.json");
        QVERIFY(f1.open(QIODevice::ReadOnly) && f2.open(QIODevice::ReadOnly));
        const QByteArray binaryBytes = f1.readAll();
        QCOMPARE(binaryBytes, f2.readAll());
        QVERIFY(binaryBytes.contains('\0')); // binary weight blocks by default
        // The readable form: all JSON (no NUL byte), the same policy bit for bit.
        const QString readable = dir_ + "/exported-readable.json";
        QVERIFY2(w.exportSelected(readable, &err, WeightsForm::Json), qPrintable(err));
        QFile f3(readable);
        QVERIFY(f3.open(QIODevice::ReadOnly));
        const QByteArray jsonBytes = f3.readAll();
        QVERIFY(!jsonBytes.contains('\0'));
        const Policy c = loadPolicy(readable.toStdString());
        QVERIFY(c.weights == a.weights);
        QCOMPARE(policyToJson(c), policyToJson(a));
    }

    void missingMeasureShowsNothing() {
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(frontier_));
        w.setMeasures(RuntimeMeasure::Mpush, AccuracyMeasure::F1);
        QCOMPARE(static_cast<int>(w.view().points.size()), 10);
        // Expected recall: no baseline point has it, so nothing is shown and nothing is exported.
        w.setMeasures(RuntimeMeasure::Mpush, AccuracyMeasure::ExpectedRecall);
        QCOMPARE(static_cast<int>(w.view().points.size()), 0);
        QCOMPARE(w.selectedPoint(), -1);
        QVERIFY(!w.exportSelected(dir_ + "/none.json"));
    }

    void plotExportsAreAtomicAndReportFailures() {
        // Issue 19: image exports went straight to the target and a failure said nothing useful.
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(frontier_));
        QString err;
        QVERIFY(!w.savePlot(dir_ + "/no/such/dir/plot.png", &err));
        QVERIFY2(err.contains("plot.png"), qPrintable(err));
        // Replacing an image keeps its permissions and leaves no temporary file behind.
        const QString p = dir_ + "/private.png";
        QVERIFY(w.savePlot(p));
        namespace fs = std::filesystem;
        const auto ownerOnly = fs::perms::owner_read | fs::perms::owner_write;
        fs::permissions(p.toStdString(), ownerOnly);
        QVERIFY(w.savePlot(p));
        QVERIFY(fs::status(p.toStdString()).permissions() == ownerOnly);
        const QStringList left =
            QDir(dir_).entryList({".private.png.tmp.*"}, QDir::Hidden | QDir::Files);
        QVERIFY2(left.isEmpty(), qPrintable(left.join(", ")));
        QVERIFY(!QImage(p).isNull());
    }

    void plotsSaveAsPngAndPdf() {
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(frontier_));
        w.setLambda(10);
        QVERIFY(w.savePlot(dir_ + "/plot.png"));
        QVERIFY(w.savePlot(dir_ + "/plot.pdf"));
        QImage img(dir_ + "/plot.png");
        QCOMPARE(img.size(), QSize(1100, 720));
        // The highlight ring is orange; the baseline points blue: both are drawn.
        int orange = 0, blue = 0;
        for (int y = 0; y < img.height(); y += 2)
            for (int x = 0; x < img.width(); x += 2) {
                const QColor c = img.pixelColor(x, y);
                orange += c.red() > 200 && c.green() > 120 && c.green() < 160 && c.blue() < 40;
                blue += c.blue() > 150 && c.red() < 60 && c.green() > 100 && c.green() < 140;
            }
        QVERIFY(orange > 20);
        QVERIFY(blue > 20);
        QVERIFY(QFileInfo(dir_ + "/plot.pdf").size() > 1000);
    }

    // "Load into explorer" carries the frontier's λ into the explorer's λ field and asks before
    // replacing a hand-edited mask: No keeps the edits, Yes loads the policy's mask.
    void loadIntoExplorerCarriesLambdaAndAsks() {
        MainWindow main(MainWindowOptions{false, false});
        QVERIFY(main.loadSampleSync());
        ExplorerPanel* e = main.explorer();
        QVERIFY(e->session());
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(frontier_));
        w.attachMainWindow(&main);
        QStringList asked;
        bool answer = false;
        w.setConfirmFunction([&](QWidget*, const QString& q, const QString&) {
            asked << q;
            return answer;
        });
        // The first slider position from `pos` up that selects a loadable policy other than
        // `avoid`.
        auto loadAt = [&](int pos, const QString& avoid) {
            for (; pos <= widgets::LambdaSlider::kSteps; ++pos) {
                w.slider()->slider()->setValue(pos);
                if (w.selectedRecord() < 0 || !w.selectionProblem().isEmpty()) continue;
                const QString p =
                    w.model().records()[static_cast<std::size_t>(w.selectedRecord())].policyPath;
                if (p != avoid) return p;
            }
            return QString();
        };
        auto waitLoaded = [&](QSignalSpy& spy, const QString& path) {
            QTRY_VERIFY_WITH_TIMEOUT(!spy.isEmpty(), 20000);
            QCOMPARE(spy.last().at(0).toBool(), true);
            QCOMPARE(QFileInfo(spy.last().at(1).toString()).canonicalFilePath(),
                     QFileInfo(path).canonicalFilePath());
        };

        // No hand edits: no question; the policy and λ arrive.
        const QString first = loadAt(widgets::LambdaSlider::kSteps / 4, QString());
        QVERIFY(!first.isEmpty());
        QVERIFY(w.selectionProblem().isEmpty());
        const double lambda1 = w.lambda();
        QVERIFY(std::abs(lambda1 - e->lambda()) > 1e-3 * lambda1); // else the test proves nothing
        {
            QSignalSpy spy(&main, &MainWindow::loadFinished);
            QVERIFY(w.loadSelectedIntoExplorer());
            waitLoaded(spy, first);
        }
        QVERIFY(asked.isEmpty());
        QCOMPARE(main.policy()->meta.name, QFileInfo(first).completeBaseName().toStdString());
        QVERIFY(std::abs(e->lambda() - lambda1) <= 1e-6 * lambda1 + 1e-9);
        QVERIFY(e->lambdaEditable());
        // It stays for the policy's other sentences.
        QVERIFY(main.sentenceCount() > 1);
        main.selectSentence(main.sentenceIndex() == 0 ? 1 : 0);
        QVERIFY(std::abs(e->lambda() - lambda1) <= 1e-6 * lambda1 + 1e-9);

        // Hand edits, another point: "No" keeps the edited mask, the policy and λ.
        bool flipped = false;
        for (int i = 0; i < e->session()->length() && !flipped; ++i)
            for (int k = i + 2; k < e->session()->length() && !flipped; ++k)
                flipped = e->requestFlip(i, k);
        QVERIFY(flipped);
        QVERIFY(e->hasHandEdits());
        const PruningMask edited = e->session()->mask();
        const QString second = loadAt(widgets::LambdaSlider::kSteps / 2, first);
        QVERIFY(!second.isEmpty());
        QVERIFY(w.selectionProblem().isEmpty());
        const double lambda2 = w.lambda();
        answer = false;
        QVERIFY(!w.loadSelectedIntoExplorer());
        QCOMPARE(asked, QStringList{"Replace your edited mask?"});
        QTest::qWait(50);
        QVERIFY(e->session()->mask() == edited);
        QCOMPARE(main.policy()->meta.name, QFileInfo(first).completeBaseName().toStdString());
        QVERIFY(std::abs(e->lambda() - lambda1) <= 1e-6 * lambda1 + 1e-9);

        // "Yes" replaces it with the new policy's mask, with the new λ.
        answer = true;
        {
            QSignalSpy spy(&main, &MainWindow::loadFinished);
            QVERIFY(w.loadSelectedIntoExplorer());
            waitLoaded(spy, second);
        }
        QCOMPARE(asked.size(), 2);
        QCOMPARE(main.policy()->meta.name, QFileInfo(second).completeBaseName().toStdString());
        QVERIFY(!e->hasHandEdits());
        QVERIFY(e->session()->mask() == e->session()->policyMask());
        QVERIFY(std::abs(e->lambda() - lambda2) <= 1e-6 * lambda2 + 1e-9);
    }

    void bundledSampleOpensByDefault() {
        if (defaultFrontierPath().isEmpty())
            QSKIP("samples/policies/frontier.json not bundled yet");
        FrontierWindow w(nullptr, true);
        QVERIFY(w.view().points.size() >= 4);
        QVERIFY(w.selectedPoint() >= 0);
        QCOMPARE(w.selectedPoint(), testdata::directBest(w.view().points, w.lambda()));
        // The initial λ selects a point whose policy file is bundled, so Load/Export/Regret work at
        // once (the bundle ships 3 of the 15 sweep policies; the median fitted λ picked one
        // without).
        const int ri = w.selectedRecord();
        QVERIFY(ri >= 0);
        const QString path = w.model().records()[static_cast<std::size_t>(ri)].policyPath;
        QVERIFY2(!path.isEmpty() && QFileInfo::exists(path), qPrintable(path));
    }
};

PRUNESCOPE_QTEST_MAIN(TestFrontierGui)
#include "test_frontier_gui.moc"
