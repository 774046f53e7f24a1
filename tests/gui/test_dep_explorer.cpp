// GUI tests of the dependency view (offscreen; Rush & Petrov 2012's arc picture): on real dev
// sentences the arc matrix shows what core computes (predicted and gold arcs, max-marginals
// relative to the best tree, the stage that pruned each arc); clicking a cell flips its mask bit
// and the predicted tree becomes exactly what `prunescope-cli dep-parse --mask-file` prints for the
// exported mask (the binary is run); alpha sliders re-run the stages (the model's max-marginal pass
// and a two-stage set built here); bad files give file:line errors and keep the previous documents;
// the main window's View menu switches to dependency mode; the bundled sample opens.
#include "app/gui/dep/DepExplorerPanel.h"
#include "app/gui/window/MainWindow.h"
#include "core/dep/DepInspection.h"
#include "core/dep/DepReader.h"
#include "core/dep/DepTraining.h"
#include "core/dep/MaxMarginalPruning.h"
#include "core/filters/ArcFilterFile.h"
#include "core/filters/FilterExplanation.h"
#include "core/filters/FilterStage.h"
#include "core/filters/FilterTrainingData.h"
#include "core/filters/IndependentTraining.h"
#include "core/util/AtomicFile.h"
#include "core/vine/CascadeTraining.h"
#include "core/vine/VineCascade.h"
#include "support/TestData.h"
#include "widgets/ArcMatrixView.h"
#include "widgets/CubeTreeView.h"

#include "widgets/ZoomArea.h"

#include "support/TestSuite.h"
#include <QAction>
#include <QComboBox>
#include <QMenuBar>
#include <QProcess>
#include <QSlider>
#include <QStackedWidget>
#include <QToolBar>

#include <atomic>
#include <cmath>
#include <cstdlib>

using namespace prunescope;
using namespace prunescope::gui;

namespace {

const std::string& devFile() {
    static const std::string f = testdata::depDir("dev") + "/wsj_0131.dp";
    return f;
}

// A first-order model trained by the core on short training sentences (a few seconds).
const std::string& modelPath() {
    static const std::string path = [] {
        std::vector<DepSentence> train, dev;
        for (auto& s : readDepTreebank(testdata::depDir("train")))
            if (s.size() <= 30 && train.size() < 400) train.push_back(std::move(s));
        for (auto& s : readDepTreebank(testdata::depDir("dev")))
            if (s.size() <= 30 && dev.size() < 20) dev.push_back(std::move(s));
        DepTrainOptions o;
        o.epochs = 2;
        o.patience = 0;
        o.hashBits = 18;
        o.learner = DepLearner::Perceptron;
        const std::string p = testdata::tempDir("dep-gui") + "/model.json";
        saveDepModel(trainDepModel(train, dev, o).model, p);
        return p;
    }();
    return path;
}

struct CliRun {
    int code = -1;
    QString out, err;
};
CliRun depParse(const QStringList& args) {
    QProcess p;
    p.start(QString::fromStdString(testdata::binaryDir()) + "/app/prunescope-cli",
            QStringList{"dep-parse"} + args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

std::vector<int> headsOf(const nlohmann::json& sentence) {
    std::vector<int> h{-1};
    for (const auto& x : sentence["heads"])
        h.push_back(x.get<int>());
    return h;
}

// A real click on the centre of arc cell (h, m).
void clickArc(DepExplorerPanel& p, int h, int m) {
    QTest::mouseClick(p.matrix(), Qt::LeftButton, {},
                      p.matrix()->cellRect(h, m).center().toPoint());
    QVERIFY(p.waitIdle());
}

// The first `stages` cascade stages (vine, first-order, second-order), each trained for one epoch
// on `train` on every arc; alphas and final model left to the caller.
VineCascade quickCascade(const std::vector<DepSentence>& train, int stages) {
    const CascadeStageKind kinds[] = {CascadeStageKind::Vine, CascadeStageKind::FirstOrder,
                                      CascadeStageKind::SecondOrder};
    VineCascade c;
    for (int k = 0; k < stages; ++k) {
        CascadeTrainOptions o;
        o.epochs = 1;
        o.hashBits = 16;
        o.kind = kinds[k];
        c.stages.push_back({cascadeStageKindName(o.kind),
                            o.kind,
                            k == 0 ? 3 : 0,
                            trainCascadeStage(train, o).weights,
                            {}});
    }
    return c;
}

// Opens the dev file and selects its first sentence of 12..25 words.
int openDev(DepExplorerPanel& p) {
    QString err;
    if (!p.openSentences(QString::fromStdString(devFile()), &err) ||
        !p.openModel(QString::fromStdString(modelPath()), &err)) {
        qWarning() << err;
        return -1;
    }
    for (int i = 0; i < static_cast<int>(p.session().sentences().size()); ++i) {
        const int n = p.session().sentences()[static_cast<std::size_t>(i)].size();
        if (n >= 12 && n <= 25) {
            p.selectSentence(i);
            return p.waitIdle() ? i : -1;
        }
    }
    return -1;
}

} // namespace

class TestDepExplorer : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY(!modelPath().empty()); }

    void matrixShowsWhatTheCoreComputes() {
        DepExplorerPanel p(nullptr, false);
        p.resize(1200, 900);
        p.show();
        const int idx = openDev(p);
        QVERIFY(idx >= 0);
        const DepSentence& s = p.session().sentence();
        const DepModel model = loadDepModel(modelPath());
        EisnerParser parser(model.eisnerOptions());
        const DepParse want = parseWithModel(model, s, nullptr, parser);
        QCOMPARE(p.session().inspection().heads, want.heads);
        auto* mx = p.matrix();
        QCOMPARE(mx->length(), s.size());
        const ArcMaxMarginals mm =
            arcMaxMarginals(DepScorer(model, s).arcScores(), nullptr, model.singleRoot);
        for (int h = 0; h <= s.size(); ++h)
            for (int m = 1; m <= s.size(); ++m) {
                if (h == m) continue;
                const widgets::ArcCell& c = mx->cell(h, m);
                QCOMPARE(c.predicted, want.heads[static_cast<std::size_t>(m)] == h);
                QCOMPARE(c.gold, s.heads[static_cast<std::size_t>(m)] == h);
                QVERIFY(c.kept);
                QCOMPARE(c.prunedBy, -1);
                QVERIFY(std::abs(static_cast<double>(c.value) - (mm(h, m) - mm.best)) < 1e-3);
                QVERIFY(c.value <= 1e-4f);
            }
        QVERIFY(p.statusText().contains("UAS"));
        // the trees: gold above, predicted below; the differing arcs are counted
        int wrong = 0;
        for (int m = 1; m <= s.size(); ++m)
            wrong +=
                want.heads[static_cast<std::size_t>(m)] != s.heads[static_cast<std::size_t>(m)];
        QCOMPARE(p.treeView()->wrongArcs(), wrong);
    }

    void flippingACellMatchesDepParseWithThatMask() {
        DepExplorerPanel p(nullptr, false);
        p.resize(1200, 900);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        const int idx = openDev(p);
        QVERIFY(idx >= 0);
        const int n = p.session().sentence().size();
        const std::vector<int> before = p.session().inspection().heads;
        // prune two arcs of the predicted tree (one of them the root arc), then re-keep an arc
        int root = 0;
        for (int m = 1; m <= n; ++m)
            if (before[static_cast<std::size_t>(m)] == 0) root = m;
        const int m2 = root == n ? n - 1 : root + 1;
        clickArc(p, 0, root);
        QVERIFY(!p.session().inspection().finalMask.keep(0, root));
        QVERIFY(p.matrix()->cell(0, root).flipped);
        QVERIFY(!p.matrix()->cell(0, root).kept);
        const std::vector<int> afterOne = p.session().inspection().heads;
        QVERIFY(afterOne != before);
        QVERIFY(afterOne[static_cast<std::size_t>(root)] != 0);
        clickArc(p, afterOne[static_cast<std::size_t>(m2)], m2);
        QCOMPARE(p.session().flipCount(), 2);
        const std::vector<int> heads = p.session().inspection().heads;
        QVERIFY(p.session().inspection().success);
        // the same mask through the command line (the binary)
        const QString dir = QString::fromStdString(testdata::tempDir("dep-gui-mask"));
        QString err;
        QVERIFY2(p.exportMask(dir + "/mask.json", &err), qPrintable(err));
        const CliRun r = depParse({"--model", QString::fromStdString(modelPath()), "--input",
                                   QString::fromStdString(devFile()), "--mask-file",
                                   dir + "/mask.json", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["sentences"].size(), std::size_t(1));
        QCOMPARE(headsOf(j["sentences"][0]), heads);
        // Export Parse writes the tree shown; `dep parse --out` writes the same bytes
        QVERIFY2(p.exportParse(dir + "/gui.conllu", &err), qPrintable(err));
        QVERIFY2(p.exportParse(dir + "/gui.dp", &err), qPrintable(err));
        QVERIFY(!p.exportParse(dir + "/gui.txt", &err));
        QVERIFY2(err.contains(".conllu"), qPrintable(err));
        const CliRun out =
            depParse({"--model", QString::fromStdString(modelPath()), "--input",
                      QString::fromStdString(devFile()), "--mask-file", dir + "/mask.json", "--out",
                      dir + "/cli.conllu", "--out", dir + "/cli.dp", "--quiet"});
        QVERIFY2(out.code == 0, qPrintable(out.err));
        QCOMPARE(readFile((dir + "/gui.conllu").toStdString()),
                 readFile((dir + "/cli.conllu").toStdString()));
        QCOMPARE(readFile((dir + "/gui.dp").toStdString()),
                 readFile((dir + "/cli.dp").toStdString()));
        const auto back = readDepTreebank((dir + "/gui.dp").toStdString());
        QCOMPARE(back.size(), std::size_t(1));
        QCOMPARE(back[0].heads, heads);
        QCOMPARE(back[0].words, p.session().sentence().words);
        QCOMPARE(j["sentences"][0]["arcsKept"].get<long>(),
                 p.session().inspection().finalMask.keptCount());
        QVERIFY(std::abs(j["sentences"][0]["uas"].get<double>() -
                         scoreAttachment(p.session().sentence(), heads).uas()) < 1e-9);
        // and the max-marginals agree cell by cell
        const auto& rows = j["sentences"][0]["maxMarginals"]["value"];
        const double best = j["sentences"][0]["maxMarginals"]["best"].get<double>();
        for (int h = 0; h <= n; ++h)
            for (int m = 1; m <= n; ++m) {
                if (h == m) continue;
                const auto& v = rows[static_cast<std::size_t>(h)][static_cast<std::size_t>(m)];
                const float shown = p.matrix()->cell(h, m).value;
                QCOMPARE(v.is_null(), std::isnan(shown));
                if (!v.is_null())
                    QVERIFY(std::abs((v.get<double>() - best) - static_cast<double>(shown)) < 1e-3);
            }
        // flipping the first arc back, then reset: the original tree returns
        clickArc(p, 0, root);
        QCOMPARE(p.session().flipCount(), 1);
        p.clearFlips();
        QVERIFY(p.waitIdle());
        QCOMPARE(p.session().inspection().heads, before);
    }

    // An EWT sentence with a multiword token (issue 41): the view opens the CoNLL-U file, and
    // Export Parse writes that sentence's lines with only HEAD, DEPREL and DEPS changed.
    void ewtSentenceExportsItsConlluLines() {
        DepExplorerPanel p(nullptr, false);
        QString err;
        const QString ewt =
            QString::fromStdString(testdata::dataDir() + "/ewt-ud/dev/en_ewt-ud-dev.conllu");
        QVERIFY2(p.openSentences(ewt, &err), qPrintable(err));
        QVERIFY2(p.openModel(QString::fromStdString(modelPath()), &err), qPrintable(err));
        QVERIFY(p.session().sentences().size() > 2000);
        int pick = -1;
        for (int i = 0; i < static_cast<int>(p.session().sentences().size()) && pick < 0; ++i) {
            const DepSentence& s = p.session().sentences()[static_cast<std::size_t>(i)];
            if (s.size() <= 25 && s.conllu.find("\n3-4\t") != std::string::npos) pick = i;
        }
        QVERIFY(pick >= 0);
        p.selectSentence(pick);
        QVERIFY(p.waitIdle());
        QVERIFY(p.session().inspection().success);
        const QString out =
            QString::fromStdString(testdata::tempDir("dep-gui-ewt") + "/sentence.conllu");
        QVERIFY2(p.exportParse(out, &err), qPrintable(err));
        const QStringList in =
            QString::fromStdString(p.session().sentence().conllu + "\n").split('\n');
        const QStringList written = QString::fromStdString(readFile(out.toStdString())).split('\n');
        QCOMPARE(written.size(), in.size() + 1); // the blank line after the sentence
        const std::vector<int>& heads = p.session().inspection().heads;
        int token = 0;
        for (qsizetype i = 0; i < in.size(); ++i) {
            const QStringList a = in[i].split('\t'), b = written[i].split('\t');
            bool isToken = false;
            a[0].toInt(&isToken);
            if (!isToken) {
                QCOMPARE(written[i], in[i]); // comments and the multiword-token line
                continue;
            }
            QCOMPARE(b[6].toInt(), heads[static_cast<std::size_t>(++token)]);
            QCOMPARE(b.mid(0, 6), a.mid(0, 6));
            QCOMPARE(b[7] + b[8], QString("__"));
        }
        QCOMPARE(token, p.session().sentence().size());
    }

    void alphaSliderChangesTheMasks() {
        DepExplorerPanel p(nullptr, false);
        p.resize(1200, 900);
        p.show();
        QVERIFY(openDev(p) >= 0);
        const std::vector<int> exhaustive = p.session().inspection().heads;
        QCOMPARE(p.alphaSliders().size(), 0);
        p.setModelMaxMarginalStage(true, 0.2);
        QVERIFY(p.waitIdle());
        QCOMPARE(p.alphaSliders().size(), 1);
        const long kept02 = p.session().inspection().finalMask.keptCount();
        p.alphaSliders()[0]->setValue(80); // as a user drags it: alpha 0.8
        QVERIFY(p.waitIdle());
        QCOMPARE(p.session().alphas()[0], 0.8);
        const long kept08 = p.session().inspection().finalMask.keptCount();
        QVERIFY2(kept08 < kept02, qPrintable(QString("%1 vs %2").arg(kept08).arg(kept02)));
        // an order-1 model's own max-marginal pass never changes its tree
        QCOMPARE(p.session().inspection().heads, exhaustive);
        // the matrix colours pruned arcs by stage
        p.setColoring(static_cast<int>(widgets::ArcColoring::Stage));
        const int n = p.session().sentence().size();
        int pruned = 0;
        for (int h = 0; h <= n; ++h)
            for (int m = 1; m <= n; ++m)
                if (h != m && !p.matrix()->cell(h, m).kept) {
                    ++pruned;
                    QCOMPARE(p.matrix()->cell(h, m).prunedBy, 0);
                    QCOMPARE(p.matrix()->cellColor(h, m), p.matrix()->stageColorOf(0));
                }
        QCOMPARE(static_cast<long>(pruned), static_cast<long>(n) * n - kept08);
    }

    // A vine cascade (vine-train's file) opened in the view: one slider per stage, named as the
    // pipeline names them, at the cascade's alphas; the shown tree and stage masks are what the
    // core pipeline (dep-eval --cascade, dep-parse --cascade) computes at the slider's alphas; a
    // bad cascade file is an error naming file:line and the previous stages stay.
    void aVineCascadeGetsOneSliderPerStage() {
        std::vector<DepSentence> train;
        for (auto& s : readDepTreebank(testdata::depDir("train")))
            if (s.size() <= 30 && train.size() < 150) train.push_back(std::move(s));
        VineCascade c = quickCascade(train, 2);
        c.alphas = {0.3, 0.4};
        c.finalModel = "no-such-model.json"; // the view keeps the model it shows
        const std::string path = testdata::tempDir("dep-gui-cascade") + "/cascade.json";
        saveVineCascade(c, path);

        DepExplorerPanel p(nullptr, false);
        p.resize(1200, 900);
        p.show();
        QVERIFY(openDev(p) >= 0);
        QString err;
        QVERIFY2(p.openCascade(QString::fromStdString(path), &err), qPrintable(err));
        QVERIFY(p.waitIdle());
        QCOMPARE(p.alphaSliders().size(), 2);
        QCOMPARE(p.session().inspection().stageNames,
                 (std::vector<std::string>{"vine", "first-order"}));
        const VineCascade loaded =
            loadVineCascade(path); // the stages point into it: it must outlive the pipeline
        auto coreAt = [&](std::vector<double> alphas) {
            DepPipeline pipeline(*p.session().modelPtr());
            appendCascadeStages(pipeline, loaded, alphas);
            EisnerParser parser;
            return inspectDepSentence(pipeline, p.session().sentence(), parser);
        };
        DepInspection want = coreAt({0.3, 0.4});
        QCOMPARE(p.session().inspection().heads, want.heads);
        QCOMPARE(p.session().inspection().prunedBy, want.prunedBy);
        p.alphaSliders()[0]->setValue(90); // the vine at alpha 0.9
        QVERIFY(p.waitIdle());
        want = coreAt({0.9, 0.4});
        QCOMPARE(p.session().inspection().heads, want.heads);
        QCOMPARE(p.session().inspection().prunedBy, want.prunedBy);
        QCOMPARE(p.session().inspection().stageMasks[1].keptCount(),
                 want.stageMasks[1].keptCount());

        // the same weights as a tree-constrained vine (vine-train --vine-structure tree): the
        // slider says so, and the view still shows what the core pipeline computes with that
        // cascade
        VineCascade tree = c;
        tree.stages[0].structure = VineStructure::Tree;
        const std::string treePath = testdata::tempDir("dep-gui-cascade") + "/tree.json";
        saveVineCascade(tree, treePath);
        QVERIFY2(p.openCascade(QString::fromStdString(treePath), &err), qPrintable(err));
        QVERIFY(p.waitIdle());
        QCOMPARE(p.alphaSliders()[0]->accessibleName(), QString("alpha of stage vine (tree)"));
        const VineCascade treeLoaded = loadVineCascade(treePath);
        DepPipeline treePipeline(*p.session().modelPtr());
        appendCascadeStages(treePipeline, treeLoaded, std::vector<double>{0.3, 0.4});
        EisnerParser treeParser;
        const DepInspection treeWant =
            inspectDepSentence(treePipeline, p.session().sentence(), treeParser);
        QCOMPARE(p.session().inspection().heads, treeWant.heads);
        QCOMPARE(p.session().inspection().prunedBy, treeWant.prunedBy);

        const std::string bad = testdata::tempDir("dep-gui-cascade") + "/bad.json";
        writeFileAtomically(bad, "{\"format\": \"prunescope-vine-cascade\",\n \"version\": 7}\n");
        QVERIFY(!p.openCascade(QString::fromStdString(bad), &err));
        QVERIFY2(err.contains("bad.json:2"), qPrintable(err));
        QCOMPARE(p.alphaSliders().size(), 2);
    }

    // A third-order model behind a three-stage cascade (vine -> first -> second order, Rush &
    // Petrov's sec. 5): the view parses with the grand-sibling parser, shows one slider per stage,
    // and each slider moves what the core pipeline computes at those alphas.
    void aThirdOrderModelBehindThreeStages() {
        std::vector<DepSentence> train, dev;
        for (auto& s : readDepTreebank(testdata::depDir("train")))
            if (s.size() <= 20 && train.size() < 120) train.push_back(std::move(s));
        for (auto& s : readDepTreebank(testdata::depDir("dev")))
            if (s.size() <= 20 && dev.size() < 10) dev.push_back(std::move(s));
        DepTrainOptions t;
        t.order = 3;
        t.epochs = 1;
        t.hashBits = 16;
        t.learner = DepLearner::Perceptron;
        const std::string dir = testdata::tempDir("dep-gui-third");
        saveDepModel(trainDepModel(train, dev, t).model, dir + "/o3.json");
        VineCascade c = quickCascade(train, 3);
        c.alphas = {0.3, 0.2, 0.1};
        c.finalModel = "o3.json";
        saveVineCascade(c, dir + "/cascade.json");

        DepExplorerPanel p(nullptr, false);
        p.resize(1200, 900);
        p.show();
        QString err;
        QVERIFY2(p.openSentences(QString::fromStdString(devFile()), &err), qPrintable(err));
        QVERIFY2(p.openModel(QString::fromStdString(dir + "/o3.json"), &err), qPrintable(err));
        QCOMPARE(p.session().modelPtr()->order, 3);
        p.selectSentence(1);
        QVERIFY(p.waitIdle());
        QVERIFY2(p.openCascade(QString::fromStdString(dir + "/cascade.json"), &err),
                 qPrintable(err));
        QVERIFY(p.waitIdle());
        QCOMPARE(p.alphaSliders().size(), 3);
        QCOMPARE(p.session().inspection().stageNames,
                 (std::vector<std::string>{"vine", "first-order", "second-order"}));
        const VineCascade loaded = loadVineCascade(dir + "/cascade.json");
        auto coreAt = [&](std::vector<double> alphas) {
            DepPipeline pipeline(*p.session().modelPtr());
            appendCascadeStages(pipeline, loaded, alphas);
            EisnerParser parser;
            return inspectDepSentence(pipeline, p.session().sentence(), parser);
        };
        DepInspection want = coreAt({0.3, 0.2, 0.1});
        QCOMPARE(p.session().inspection().heads, want.heads);
        QCOMPARE(p.session().inspection().prunedBy, want.prunedBy);
        const long before = p.session().inspection().stageMasks.back().keptCount();
        p.alphaSliders()[2]->setValue(90); // the second-order stage at alpha 0.9
        QVERIFY(p.waitIdle());
        want = coreAt({0.3, 0.2, 0.9});
        QCOMPARE(p.session().inspection().heads, want.heads);
        QCOMPARE(p.session().inspection().prunedBy, want.prunedBy);
        QVERIFY(p.session().inspection().stageMasks.back().keptCount() < before);
        // what the panel's background task runs stops on its cancel flag (a newer request
        // supersedes a long third-order parse) instead of showing an error
        std::atomic<bool> stop{true};
        QVERIFY_THROWS_EXCEPTION(Cancelled, DepSession::compute(p.session().request(), &stop));
        std::atomic<bool> go{false};
        QCOMPARE(DepSession::compute(p.session().request(), &go).inspection.heads, want.heads);
    }

    void anArcFilterRunsFirstAndIsExplained() {
        // a tiny independent filter (Bergsma & Cherry 2010) trained here; B = A at a lower
        // threshold
        std::vector<DepSentence> train;
        for (auto& s : readDepTreebank(testdata::depDir("train")))
            if (s.size() <= 25 && train.size() < 60) train.push_back(std::move(s));
        IndependentFilterOptions o;
        o.hashBits = 14;
        ArcFilter a = trainIndependentFilter(prepareFilterTraining(train), o);
        a.threshold = 0;
        ArcFilter b = a;
        b.threshold = -0.5;
        const std::string dir = testdata::tempDir("dep-gui-filter");
        saveArcFilter(a, dir + "/a.json");
        saveArcFilter(b, dir + "/b.json");

        DepExplorerPanel p(nullptr, false);
        p.resize(1200, 900);
        p.show();
        QVERIFY(openDev(p) >= 0);
        p.setModelMaxMarginalStage(true, 0.3);
        QVERIFY(p.waitIdle());
        p.setColoring(static_cast<int>(widgets::ArcColoring::Stage));
        const QColor maxMarginal = p.matrix()->stageColorOf(0); // before the filter
        QString err;
        QVERIFY2(p.openFilter(QString::fromStdString(dir + "/a.json"), &err), qPrintable(err));
        QVERIFY(p.waitIdle());
        QCOMPARE(p.session().inspection().stageNames,
                 (std::vector<std::string>{"filter", "max-marginal"}));
        // A filter in front does not recolour the stages behind it.
        QCOMPARE(p.matrix()->stageColorOf(1), maxMarginal);
        QVERIFY(p.matrix()->stageColorOf(0) != maxMarginal);
        QCOMPARE(p.alphaSliders().size(), 1); // the filter runs at its threshold, no slider
        const DepSentence& s = p.session().sentence();
        const int n = s.size();
        auto coreWith = [&](const ArcFilter& f) {
            DepPipeline pipeline(*p.session().modelPtr());
            pipeline.addStage(arcFilterStage(std::make_shared<const ArcFilter>(f)));
            const std::vector<double> alphas{0.3};
            modelMaxMarginalStages(p.session().modelPtr(), 0.3).append(pipeline, alphas);
            EisnerParser parser;
            return inspectDepSentence(pipeline, s, parser);
        };
        DepInspection want = coreWith(loadArcFilter(dir + "/a.json"));
        QVERIFY(p.session().inspection().finalMask.bits == want.finalMask.bits);
        QCOMPARE(p.session().inspection().prunedBy, want.prunedBy);
        QCOMPARE(p.session().inspection().heads, want.heads);

        // event colours and tooltips are core's explanation
        const ArcFilterExplanation e = explainArcFilter(a, s);
        const ArcFilterScorer sc(a, s);
        p.setColoring(static_cast<int>(widgets::ArcColoring::Stage));
        int filtered = 0;
        for (int h = 0; h <= n; ++h)
            for (int m = 1; m <= n; ++m) {
                if (h == m || want.prunedByAt(h, m) != 0) continue;
                ++filtered;
                const FilterEvent z = e.maxEventAt(h, m);
                QCOMPARE(p.matrix()->cell(h, m).event, static_cast<int>(z.kind));
                if (!p.matrix()->cell(h, m).kept) // (a fallback may put a filtered arc back)
                    QCOMPARE(p.matrix()->cellColor(h, m),
                             widgets::ArcMatrixView::eventColor(static_cast<int>(z.kind)));
                const QString tip = p.arcTooltip(h, m);
                for (const auto& [ev, v] : arcFilterEventScores(a, sc, h, m))
                    QVERIFY2(tip.contains(QString("%1 %2")
                                              .arg(QString::fromStdString(ev.name()))
                                              .arg(static_cast<double>(v), 0, 'f', 3)),
                             qPrintable(tip));
                QVERIFY2(tip.contains(QString("<b>%1 ").arg(QString::fromStdString(z.name()))) &&
                             tip.contains("(max)</b>"),
                         qPrintable(tip));
            }
        QVERIFY(filtered > 0);
        // the readout: counted here from the filter's own mask
        long goldKept = 0, cut = 0;
        const ArcMask fm = ArcFilterScorer(a, s).mask(a.threshold);
        for (int m = 1; m <= n; ++m)
            goldKept += fm.keep(s.heads[static_cast<std::size_t>(m)], m);
        cut = static_cast<long>(n) * n - fm.keptCount();
        QVERIFY2(
            p.statusText().contains(QString("filter keeps %1/%2 gold arcs").arg(goldKept).arg(n)),
            qPrintable(p.statusText()));
        QVERIFY2(p.statusText().contains(QString("filters %1/%2 arcs").arg(cut).arg(n * n)),
                 qPrintable(p.statusText()));
        // roles under the tokens are core's detected roles
        QVERIFY(p.filterExplanation());
        QCOMPARE(p.filterExplanation()->roles, e.roles);

        // a second filter B becomes active; arcs A decides differently are marked
        QVERIFY2(p.openFilter(QString::fromStdString(dir + "/b.json"), &err), qPrintable(err));
        QVERIFY(p.waitIdle());
        QCOMPARE(p.filterCount(), 2);
        QCOMPARE(p.activeFilter(), 1);
        const ArcMask bm = ArcFilterScorer(b, s).mask(b.threshold);
        int differ = 0;
        for (int h = 0; h <= n; ++h)
            for (int m = 1; m <= n; ++m) {
                if (h == m) continue;
                const bool d = bm.keep(h, m) != fm.keep(h, m);
                differ += d;
                QCOMPARE(p.matrix()->cell(h, m).differs, d);
            }
        QVERIFY(differ > 0);
        QVERIFY2(p.statusText().contains(
                     QString("%1 arc(s) decided differently by filter A").arg(differ)),
                 qPrintable(p.statusText()));
        want = coreWith(b);
        QVERIFY(p.session().inspection().finalMask.bits == want.finalMask.bits);
        // the combo switches back to A, and to no filter
        auto* combo = p.toolBar()->findChild<QComboBox*>();
        QVERIFY(combo);
        p.setActiveFilter(0);
        QVERIFY(p.waitIdle());
        QVERIFY(p.session().inspection().finalMask.bits == coreWith(a).finalMask.bits);
        p.setActiveFilter(-1);
        QVERIFY(p.waitIdle());
        QCOMPARE(p.session().inspection().stageNames, (std::vector<std::string>{"max-marginal"}));
        QVERIFY(!p.filterExplanation());

        // a bad filter file: file:line, the filters kept
        const std::string bad = dir + "/bad.json";
        writeFileAtomically(bad, "{\"format\": \"prunescope-arc-filter\",\n \"version\": 7}\n");
        QVERIFY(!p.openFilter(QString::fromStdString(bad), &err));
        QVERIFY2(err.contains("bad.json:2"), qPrintable(err));
        QCOMPARE(p.filterCount(), 2);
    }

    void slidersDriveAnyStageSet() {
        // Two test stages: a length limit b = round(10 * (1 - alpha)) + 1, then the max-marginal
        // pass.
        DepExplorerPanel p(nullptr, false);
        p.resize(1200, 900);
        p.show();
        QVERIFY(openDev(p) >= 0);
        auto model = std::make_shared<const DepModel>(loadDepModel(modelPath()));
        auto set = std::make_shared<DepStageSet>();
        set->source = "a test";
        set->names = {"length", "max-marginal"};
        set->alphas = {0.0, 0.0};
        set->append = [model](DepPipeline& pl, std::span<const double> a) {
            const int b = static_cast<int>(std::lround(10 * (1 - a[0]))) + 1;
            pl.addStage({"length", false,
                         [b](const DepSentence& s, const ArcMask& in, DepSentenceFeatures&) {
                             StageResult r{ArcMask::none(s.size()), 0};
                             for (int h = 0; h <= s.size(); ++h)
                                 for (int m = 1; m <= s.size(); ++m)
                                     if (h != m && in.keep(h, m) &&
                                         (h == 0 || std::abs(h - m) <= b))
                                         r.mask.set(h, m, true);
                             return r;
                         }});
            pl.addStage(modelMaxMarginalStage(*model, a[1]));
        };
        p.setStageSet(set);
        QVERIFY(p.waitIdle());
        QCOMPARE(p.alphaSliders().size(), 2);
        auto keptAfter = [&](int k) {
            return p.session().inspection().stageMasks[static_cast<std::size_t>(k)].keptCount();
        };
        const long len0 = keptAfter(1), mm0 = keptAfter(2);
        p.alphaSliders()[0]->setValue(90); // b = 2
        QVERIFY(p.waitIdle());
        QVERIFY(keptAfter(1) < len0);
        p.alphaSliders()[1]->setValue(70);
        QVERIFY(p.waitIdle());
        QVERIFY(keptAfter(2) < keptAfter(1));
        QVERIFY(keptAfter(2) < mm0);
        // each pruned arc names the stage that pruned it
        const DepInspection& r = p.session().inspection();
        const int n = r.n;
        for (int h = 0; h <= n; ++h)
            for (int m = 1; m <= n; ++m)
                if (h != m && !r.stageMasks[1].keep(h, m))
                    QCOMPARE(p.matrix()->cell(h, m).prunedBy, 0);
                else if (h != m && !r.stageMasks[2].keep(h, m))
                    QCOMPARE(p.matrix()->cell(h, m).prunedBy, 1);
        // sliders dragged quickly: the view ends on the last value
        for (int v = 0; v <= 100; v += 5)
            p.alphaSliders()[1]->setValue(v);
        QVERIFY(p.waitIdle());
        QCOMPARE(p.session().alphas()[1], 1.0);
        DepPipeline check(*model);
        set->append(check, p.session().alphas());
        EisnerParser parser(model->eisnerOptions());
        QCOMPARE(p.session().inspection().stageMasks,
                 inspectDepSentence(check, p.session().sentence(), parser).stageMasks);
    }

    void badFilesGiveErrorsAndKeepTheDocuments() {
        DepExplorerPanel p(nullptr, false);
        QVERIFY(openDev(p) >= 0);
        const auto heads = p.session().inspection().heads;
        const std::string dir = testdata::tempDir("dep-gui-bad");
        writeFileAtomically(dir + "/bad.dp", "The\tDT\t2\ndog\tNN\t0\n\nA\tDT\tx\n");
        writeFileAtomically(
            dir + "/model.json",
            "{\"format\": \"prunescope-dep-model\", \"version\": 1,\n \"order\": 3}\n");
        writeFileAtomically(dir + "/broken.json", "{\"format\": \n");
        QSignalSpy errors(&p, &DepExplorerPanel::errorOccurred);
        QString err;
        QVERIFY(!p.openSentences(QString::fromStdString(dir + "/bad.dp"), &err));
        QVERIFY2(err.contains("bad.dp:4"), qPrintable(err));
        QVERIFY(!p.openModel(QString::fromStdString(dir + "/model.json"), &err));
        QVERIFY2(err.contains("model.json"), qPrintable(err));
        QVERIFY(!p.openModel(QString::fromStdString(dir + "/broken.json"), &err));
        QVERIFY2(err.contains("broken.json:2"), qPrintable(err));
        QVERIFY(!p.openSentences(QString::fromStdString(dir + "/missing.dp"), &err));
        QCOMPARE(errors.count(), 4);
        QVERIFY(p.waitIdle());
        QCOMPARE(p.session().inspection().heads, heads); // previous documents kept
        // a mask file for the wrong sentence length: dep-parse refuses it with the file named
        writeFileAtomically(dir + "/mask.json", "{\"n\": 3, \"pruned\": [[0,1]]}\n");
        const CliRun r = depParse({"--model", QString::fromStdString(modelPath()), "--input",
                                   QString::fromStdString(devFile()), "--mask",
                                   QString::fromStdString(dir + "/mask.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith(QString::fromStdString("error: " + dir + "/mask.json")),
                 qPrintable(r.err));
    }

    void mainWindowSwitchesToDependencyMode() {
        qputenv("PRUNESCOPE_SAMPLES",
                QByteArray::fromStdString(testdata::sourceDir() + "/samples"));
        MainWindow w(MainWindowOptions{false, true});
        w.show();
        QAction* dep = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text().contains("Dependency Mode")) dep = a;
        QVERIFY(dep);
        dep->trigger();
        QCOMPARE(w.mode(), MainWindow::Mode::Dependency);
        auto* stack = qobject_cast<QStackedWidget*>(w.centralWidget());
        QVERIFY(stack);
        QCOMPARE(stack->currentWidget(), static_cast<QWidget*>(w.depExplorer()));
        // the bundled sample opened on first show
        DepExplorerPanel* p = w.depExplorer();
        QVERIFY(p->waitIdle());
        QVERIFY(p->session().ready());
        QVERIFY(p->session().hasAnalysis());
        QCOMPARE(p->matrix()->length(), p->session().sentence().size());
        // Sentence > Next moves the dependency view's sentence in dependency mode
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == "&Next") a->trigger();
        QVERIFY(p->waitIdle());
        QCOMPARE(p->session().index(), 1);
        QCOMPARE(p->matrix()->length(), p->session().sentences()[1].size());
        // Issue 42, zoom in every view: in dependency mode View ▸ Zoom In / Out / Fit act on the
        // arc matrix (or the tree, when it holds the focus), which then scrolls.
        w.resize(1200, 800);
        QApplication::processEvents();
        QAction *zoomIn = nullptr, *fit = nullptr;
        for (QAction* a : w.findChildren<QAction*>()) {
            if (a->text() == "Zoom &In") zoomIn = a;
            if (a->text() == "&Fit to Window") fit = a;
        }
        QVERIFY(zoomIn && fit);
        QCOMPARE(w.focusedZoomArea(), p->matrixZoom());
        const int fitted = p->matrix()->width();
        zoomIn->trigger();
        zoomIn->trigger();
        QVERIFY(p->matrixZoom()->zoom() > 1.5);
        QApplication::processEvents();
        QVERIFY2(p->matrix()->width() > fitted * 1.4,
                 qPrintable(QString("%1 -> %2").arg(fitted).arg(p->matrix()->width())));
        p->treeZoom()->setFocus();
        QCOMPARE(w.focusedZoomArea(), p->treeZoom());
        zoomIn->trigger();
        QVERIFY(p->treeZoom()->zoom() > 1);
        fit->trigger();
        QCOMPARE(p->matrixZoom()->zoom(), 1.0);
        QCOMPARE(p->treeZoom()->zoom(), 1.0);
        w.setMode(MainWindow::Mode::Constituency);
        QCOMPARE(stack->currentWidget(), static_cast<QWidget*>(w.explorer()));
        QCOMPARE(w.focusedZoomArea(), w.explorer()->focusedZoomArea());
    }
};

PRUNESCOPE_QTEST_MAIN(TestDepExplorer)
#include "test_dep_explorer.moc"
