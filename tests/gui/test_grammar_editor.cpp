// GUI test (offscreen) of the classroom grammar and its editor (issue 42, "a grammar a class can
// read ... editable in the app (edit rule weights or add a rule, reparse live); Type a sentence
// works with it"): File ▸ Open Classroom Sample, Edit ▸ Edit Grammar; lowering the VP attachment
// rule moves the PP to the noun in the shown parse at once; an added word is used by a typed
// sentence; Save As writes a grammar prunescope-cli parses the same; a bad row is refused and
// the grammar kept; the treebank grammar is refused as too large; the edits survive a saved
// session.
#include "app/gui/explorer/GrammarEditor.h"
#include "app/gui/explorer/SentenceSession.h"
#include "app/gui/window/MainWindow.h"
#include "core/grammar/GrammarEdit.h"
#include "support/CliRun.h"
#include "support/ExplorerWindow.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QAction>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>

using namespace prunescope;
using namespace prunescope::gui;

class TestGrammarEditor : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    QTemporaryDir dir_;

    std::string shownTree() { return win_->explorer()->session()->result().tree.toString(); }
    int row(const QString& rule) {
        QTableWidget* t = win_->grammarEditor()->table();
        for (int r = 0; r < t->rowCount(); ++r)
            if (t->item(r, 0)->text() == rule) return r;
        return -1;
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QString error;
        win_ = testgui::shownMainWindow(1400, 900, false, error);
        QVERIFY2(win_, qPrintable(error));
    }

    void treebankGrammarIsRefusedClassroomOpens() {
        QVERIFY(win_->grammar()->numSymbols() > 1000); // the bundled treebank grammar
        win_->editGrammarAction()->trigger();
        QVERIFY(!win_->grammarEditor()); // refused: too large (an error dialog says so)
        QVERIFY(win_->openClassroomSampleSync());
        QCOMPARE(win_->grammar()->numSymbols(), 14);
        QVERIFY(!win_->policy());
        QCOMPARE(win_->sentenceCount(), 12);
        win_->editGrammarAction()->trigger();
        QVERIFY(win_->grammarEditor() && win_->grammarEditor()->isVisible());
        QVERIFY(win_->grammarEditor()->table()->rowCount() > 30);
    }

    void aWeightReparsesAtOnce() {
        win_->selectSentence(1); // the girl saw the man with a telescope .
        QVERIFY2(shownTree().find("(VP (VBD saw) (NP (DT the) (NN man)) (PP") != std::string::npos,
                 shownTree().c_str());
        const int r = row("VP -> @VP|VBD_NP PP");
        QVERIFY(r >= 0);
        win_->grammarEditor()->table()->item(r, 1)->setText("0.000001");
        QString error;
        QVERIFY2(win_->grammarEditor()->apply(&error), qPrintable(error));
        QVERIFY2(shownTree().find("(NP (NP (DT the) (NN man)) (PP (IN with)") != std::string::npos,
                 shownTree().c_str());
        QVERIFY(win_->explorer()->session()->grammarPtr() == win_->grammarEditor()->grammar());
    }

    void anAddedWordServesATypedSentenceAndTheCliAgrees() {
        win_->grammarEditor()->addRule("JJ -> 'big'", 0.3);
        QString error;
        QVERIFY2(win_->grammarEditor()->apply(&error), qPrintable(error));
        win_->parseTypedSentence("the big dog slept .");
        const std::string gui = shownTree();
        QVERIFY2(gui.find("(JJ big)") != std::string::npos, gui.c_str());
        const QString saved = dir_.filePath("edited.gram");
        QVERIFY2(win_->grammarEditor()->saveAs(saved, &error), qPrintable(error));
        testdata::CliRunOptions o;
        o.input = "the big dog slept .\n";
        const testdata::CliRun cli = testdata::runCli({"parse", "--grammar", saved}, o);
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QCOMPARE(cli.out.trimmed().toStdString(), gui);
    }

    // The edits survive a saved session (grammarRules): a fresh window opening it parses the
    // typed sentence with the added word exactly as this one, and its documents line says
    // "(edited)"; a session whose rule is malformed is refused at the rule's file:line:column.
    void editsSurviveASavedSession() {
        const QString path = dir_.filePath("edited.prunescope-session");
        QString error;
        QVERIFY2(win_->saveSession(path, &error), qPrintable(error));
        const std::string before = shownTree();
        auto w2 = std::make_unique<MainWindow>(MainWindowOptions{false, false});
        w2->resize(1400, 900);
        w2->show();
        QVERIFY2(w2->openSession(path, &error), qPrintable(error));
        QCOMPARE(w2->explorer()->session()->result().tree.toString(), before);
        QVERIFY2(w2->documentsText().contains("(edited)"), qPrintable(w2->documentsText()));
        const std::vector<RuleLine> a = grammarRuleLines(*win_->grammar()),
                                    b = grammarRuleLines(*w2->grammar());
        QCOMPARE(b.size(), a.size());
        for (std::size_t r = 0; r < a.size(); ++r) {
            QCOMPARE(b[r].text(), a[r].text());
            QCOMPARE(b[r].probability, a[r].probability); // bit for bit through the JSON
        }
        // A malformed rule: refused, naming the session file and the rule's place.
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(f.readAll());
        f.close();
        QVERIFY(text.contains("\"JJ -> 'big'\""));
        text.replace("\"JJ -> 'big'\"", "\"JJ -> DT JJ NN\"");
        const QString bad = dir_.filePath("bad.prunescope-session");
        QFile g(bad);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write(text.toUtf8());
        g.close();
        QVERIFY(!w2->openSession(bad, &error));
        QVERIFY2(error.contains("bad.prunescope-session:") && error.contains("/grammarRules/"),
                 qPrintable(error));
        QCOMPARE(w2->explorer()->session()->result().tree.toString(), before); // nothing changed
    }

    void aBadRowIsRefusedAndTheGrammarKept() {
        const auto before = win_->grammarEditor()->grammar();
        win_->grammarEditor()->addRule("NP -> DT JJ NN", 0.5); // not binarized
        QString error;
        QVERIFY(!win_->grammarEditor()->apply(&error));
        QVERIFY2(error.startsWith("Row ") && error.contains("one or two symbols"),
                 qPrintable(error));
        QVERIFY(win_->grammarEditor()->grammar() == before);
        QVERIFY(win_->explorer()->session()->grammarPtr() == before);
    }
};

PRUNESCOPE_QTEST_MAIN(TestGrammarEditor)
#include "test_grammar_editor.moc"
