// GUI test (offscreen) of figure export (issue 18): the chart heat map and each tree alone as SVG
// (parses, carries the caption as text), PDF (%PDF) and PNG at 1×/2×/3× (pixel size scales);
// failures are reported and leave no file; the headless `prunescope --export-chart-figure` mode.
#include "app/gui/window/MainWindow.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QUndoStack>
#include <QXmlStreamReader>

using namespace prunescope;
using namespace prunescope::gui;

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The text content of an SVG file (all character data), or a null string if it does not parse.
QString svgText(const QString& path) {
    QXmlStreamReader xml(readAll(path));
    QString text;
    bool svgRoot = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("svg")) svgRoot = true;
        if (xml.isCharacters()) text += xml.text();
    }
    if (xml.hasError() || !svgRoot) return QString();
    return text.isNull() ? QString("") : text;
}

} // namespace

class TestFigureExport : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    QString dir_;
    ExplorerPanel* ex() { return win_->explorer(); }

  private slots:
    void initTestCase() {
        win_ = std::make_unique<MainWindow>(MainWindowOptions{false, false});
        win_->resize(1400, 900);
        win_->show();
        QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
        QVERIFY(win_->loadSampleSync());
        win_->selectSentence(0);
        QCoreApplication::processEvents();
        dir_ = QString::fromStdString(testdata::tempDir("figure_export"));
    }

    void captionNamesSentencePolicyLambdaF1Pushes() {
        const QString c = ex()->figureCaption();
        QVERIFY(c.contains(QString::fromStdString(ex()->session()->words().front())));
        QVERIFY(c.contains("λ = "));
        QVERIFY(c.contains("F1 = " + ex()->f1Text()));
        QVERIFY(c.contains("pushes = " + QString::number(ex()->session()->result().pushes)));
        QVERIFY(c.contains("the policy's"));
        QVERIFY(ex()->requestFlip(0, 2));
        QVERIFY(ex()->figureCaption().contains("edited by hand"));
        ex()->undoStack()->undo();
    }

    void svgParsesAndCarriesTheCaption() {
        for (FigureView v : {FigureView::Chart, FigureView::PredictedTree, FigureView::GoldTree}) {
            const QString path = dir_ + QString("/fig%1.svg").arg(static_cast<int>(v));
            QString err;
            QVERIFY2(ex()->exportFigure(v, path, 1, true, &err), qPrintable(err));
            const QString text = svgText(path);
            QVERIFY2(!text.isNull(), "the SVG does not parse");
            QVERIFY2(text.contains("pushes = " + QString::number(ex()->session()->result().pushes)),
                     qPrintable(text.left(400)));
            QVERIFY(text.contains(QString::fromStdString(ex()->session()->words().front())));
        }
        // Without a caption, the caption's text is absent.
        const QString bare = dir_ + "/bare.svg";
        QVERIFY(ex()->exportFigure(FigureView::Chart, bare, 1, false));
        QVERIFY(!svgText(bare).contains("pushes = "));
    }

    void pngScalesWithOneTwoThreeTimes() {
        for (FigureView v : {FigureView::Chart, FigureView::PredictedTree}) {
            QSize one;
            for (int s = 1; s <= 3; ++s) {
                const QString path =
                    dir_ + QString("/fig%1-%2x.png").arg(static_cast<int>(v)).arg(s);
                QString err;
                QVERIFY2(ex()->exportFigure(v, path, s, true, &err), qPrintable(err));
                QImage img(path);
                QVERIFY(!img.isNull());
                if (s == 1) {
                    one = img.size();
                    // The view's own size plus the caption below it.
                    QWidget* view = v == FigureView::Chart ? static_cast<QWidget*>(ex()->heatMap())
                                                           : ex()->predictedView();
                    QCOMPARE(img.width(), view->width());
                    QVERIFY(img.height() > view->height());
                } else {
                    QCOMPARE(img.size(), one * s);
                }
            }
        }
    }

    void pdfIsAPdf() {
        for (FigureView v : {FigureView::Chart, FigureView::GoldTree}) {
            const QString path = dir_ + QString("/fig%1.pdf").arg(static_cast<int>(v));
            QString err;
            QVERIFY2(ex()->exportFigure(v, path, 1, true, &err), qPrintable(err));
            const QByteArray bytes = readAll(path);
            QVERIFY(bytes.startsWith("%PDF"));
            QVERIFY(bytes.size() > 1000);
        }
    }

    void failuresAreReportedAndLeaveNoFile() {
        QString err;
        QVERIFY(
            !ex()->exportFigure(FigureView::Chart, dir_ + "/no-such-dir/fig.svg", 1, true, &err));
        QVERIFY(!err.isEmpty());
        QVERIFY(!QFile::exists(dir_ + "/no-such-dir/fig.svg"));
        err.clear();
        QVERIFY(!ex()->exportFigure(FigureView::Chart, dir_ + "/fig.bmp", 1, true, &err));
        QVERIFY(err.contains(".svg"));
        QVERIFY(!QFile::exists(dir_ + "/fig.bmp"));
        // An existing figure survives a failed overwrite untouched (atomic write).
        const QString keep = dir_ + "/keep.svg";
        QVERIFY(ex()->exportFigure(FigureView::Chart, keep, 1, false));
        const QByteArray before = readAll(keep);
        QVERIFY(!ex()->exportFigure(FigureView::Chart, keep + "/x.svg", 1, true, &err));
        QCOMPARE(readAll(keep), before);
    }

    // The headless mode, as scripts and the user guide call it.
    void commandLineExportsChartAndTreeFigures() {
        const QString exe = QStringLiteral(PRUNESCOPE_BINARY_DIR "/app/prunescope");
        if (!QFile::exists(exe)) QSKIP("the prunescope executable is not built");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        auto run = [&](const QStringList& args) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(exe, args);
            if (!p.waitForFinished(120000)) return -1;
            if (p.exitCode() != 0) qWarning() << p.readAllStandardError();
            return p.exitCode();
        };
        const QString png1 = dir_ + "/cli-1x.png", png2 = dir_ + "/cli-2x.png",
                      svg = dir_ + "/cli-tree.svg";
        QCOMPARE(run({"--export-chart-figure", png1, "--sentence", "2", "--caption"}), 0);
        QCOMPARE(
            run({"--export-chart-figure", png2, "--sentence", "2", "--caption", "--scale", "2"}),
            0);
        QCOMPARE(QImage(png2).size(), QImage(png1).size() * 2);
        QCOMPARE(run({"--export-tree-figure", svg, "--tree", "gold", "--caption"}), 0);
        QVERIFY(svgText(svg).contains("pushes = "));
        QVERIFY(run({"--export-chart-figure", dir_ + "/x.svg", "--scale", "9"}) != 0);
        QVERIFY(!QFile::exists(dir_ + "/x.svg"));
    }
};

PRUNESCOPE_QTEST_MAIN(TestFigureExport)
#include "test_figure_export.moc"
