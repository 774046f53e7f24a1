// GUI test (offscreen) of File ▸ Open for JSON files of the other views (issue 42, "File ▸ Open
// ignores a JSON file's `format`: a dependency model or vine cascade fails as 'expected
// prunescope-policy'"): a dependency model opens in the dependency view, a cube model in the cube
// explorer, a frontier in the frontier window, a policy still in the explorer; dependency mode
// turns the span chart's View entries off and a folder opens as a dependency treebank.
#include "app/gui/cube/CubeExplorerWindow.h"
#include "app/gui/dep/DepExplorerPanel.h"
#include "app/gui/explorer/ChartPresentation.h"
#include "app/gui/frontier/FrontierWindow.h"
#include "app/gui/window/MainWindow.h"
#include "support/ExplorerWindow.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>

using namespace prunescope;
using namespace prunescope::gui;

class TestOpenByFormat : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;

    QString sample(const std::string& p) { return QString::fromStdString(testdata::samplePath(p)); }
    QAction* viewEntry(const QString& text) {
        for (QAction* m : win_->menuBar()->actions())
            if (m->menu() && m->text().remove('&') == "View")
                for (QAction* a : m->menu()->actions())
                    if (a->text().remove('&') == text) return a;
        return nullptr;
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QString error;
        win_ = testgui::shownMainWindow(1280, 800, false, error);
        QVERIFY2(win_, qPrintable(error));
    }

    void dependencyModelOpensInTheDependencyView() {
        QString errors;
        connect(win_.get(), &MainWindow::errorOccurred, this,
                [&](const QString& m) { errors += m; });
        QVERIFY(win_->openFileSync(sample("dep/model.json")));
        QCOMPARE(win_->mode(), MainWindow::Mode::Dependency);
        QVERIFY2(errors.isEmpty(), qPrintable(errors));
        // The span chart's View entries are off here, on again in constituency mode.
        QAction* replay = viewEntry("Replay CKY");
        QAction* quantity = viewEntry(quantityName(kAllQuantities[0]).remove('&'));
        QVERIFY(replay && quantity);
        QVERIFY(!quantity->isEnabled());
        QVERIFY(!replay->isEnabled());
        QVERIFY(!viewEntry("Show Binarized Symbols")->isEnabled());
        QVERIFY(!viewEntry("Compare Masks")->isEnabled());
        QVERIFY(viewEntry("Zoom In")->isEnabled());
        win_->setMode(MainWindow::Mode::Constituency);
        QVERIFY(replay->isEnabled());
        QVERIFY(viewEntry("Show Binarized Symbols")->isEnabled());
        QVERIFY(quantity->isEnabled());
    }

    void cubeModelAndFrontierOpenInTheirWindows() {
        QVERIFY(win_->openFileSync(sample("cube/model.json")));
        bool cube = false, frontier = false;
        for (QWidget* w : QApplication::topLevelWidgets()) {
            cube = cube || (qobject_cast<CubeExplorerWindow*>(w) && w->isVisible());
        }
        QVERIFY(cube);
        QVERIFY(win_->openFileSync(sample("policies/frontier.json")));
        for (QWidget* w : QApplication::topLevelWidgets())
            frontier = frontier || (qobject_cast<FrontierWindow*>(w) && w->isVisible());
        QVERIFY(frontier);
    }

    void aPolicyStillOpensInTheExplorer() {
        win_->setMode(MainWindow::Mode::Constituency);
        QVERIFY(win_->openFileSync(sample("policies/baseline-w16.json")));
        QCOMPARE(win_->mode(), MainWindow::Mode::Constituency);
        QVERIFY(win_->policy());
    }

    // The toolbar's Open Folder… and File ▸ Open Dependency Treebank Folder… pick a folder; what
    // they open is every treebank file in it.
    void aFolderOpensAsADependencyTreebank() {
        bool toolbar = false, menu = false;
        for (QAction* a : win_->depExplorer()->findChildren<QAction*>())
            toolbar = toolbar || a->text() == "Open Folder…";
        for (QAction* a : win_->findChildren<QAction*>())
            menu = menu || a->text().remove('&') == "Open Dependency Treebank Folder…";
        QVERIFY(toolbar && menu);
        const QString dev = QString::fromStdString(testdata::depDir("dev"));
        QString error;
        QVERIFY2(win_->depExplorer()->openSentences(dev, &error), qPrintable(error));
        QVERIFY(win_->depExplorer()->session().sentences().size() > 100);
    }

    void cleanupTestCase() { win_.reset(); }
};

PRUNESCOPE_QTEST_MAIN(TestOpenByFormat)
#include "test_open_by_format.moc"
