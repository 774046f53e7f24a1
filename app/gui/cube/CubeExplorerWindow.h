#pragma once
// The cube-pruning explorer (Zhang, Huang, Zhao & McDonald 2013): for one sentence and a trained
// cube-pruning model, the span chart with every cell's beam (click a cell to list its k items with
// scores), the gold item's rank or "fell off the beam", the violation at each gold node, the s-max
// node and the p-max frontier on the chart and under the trees, and "Apply update": one perceptron
// step of the chosen strategy (standard, skip, s-max, p-max) on a working copy of the weights, with
// the subtree pairs it moves toward and away from. Opened from the main window's View menu.
#include "app/gui/cube/CubeSession.h"

#include <QFutureWatcher>
#include <QMainWindow>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;
class QTextBrowser;

namespace prunescope::widgets {
class CubeChartView;
class CubeTreeView;
} // namespace prunescope::widgets

namespace prunescope::gui {

// `prunescope --screenshot-cube FILE ...` (CubeCommandLine.cpp): exit code, or -1 if not requested.
int runCubeCommandLineMode(const QStringList& args);

// The bundled sample's cube model and sentences (samples/cube/), "" if absent.
QString defaultCubeModelPath();
QString defaultCubeSentencesPath();

class CubeExplorerWindow : public QMainWindow {
    Q_OBJECT
  public:
    // openDefault: load the bundled sample (in the background).
    explicit CubeExplorerWindow(QWidget* parent = nullptr, bool openDefault = true);
    ~CubeExplorerWindow() override;
    static CubeExplorerWindow* showFor(QWidget* parent);

    // Loads in the background; emits loaded(ok, message).
    void openModel(const QString& path);
    // Loads on the calling thread (tests, screenshots). false + message on error.
    bool openModelSync(const QString& path, QString* error = nullptr);
    bool openSentences(const QString& path, QString* error = nullptr);

    void selectSentence(int index);
    void setBeam(int k);
    void setStrategy(CubeUpdateStrategy s);
    void selectCell(int cellId); // lists its beam
    bool applyUpdate();          // false if the strategy does not update on this sentence
    void resetWeights();

    const CubeSession& session() const { return session_; }
    widgets::CubeChartView* chartView() const { return chart_; }
    widgets::CubeTreeView* treeView() const { return tree_; }
    QTableWidget* beamTable() const { return beamTable_; }
    QTableWidget* goldTable() const { return goldTable_; }
    QTextBrowser* updateView() const { return updateView_; }
    QString statusText() const;
    bool isLoading() const { return watcher_ != nullptr; }

  signals:
    void loaded(bool ok, const QString& message);

  private:
    void buildUi();
    void refresh();
    void listBeam(int cellId);
    void fillGoldTable();
    void fillUpdateView(const QString& lastStep = {});
    void setModel(std::shared_ptr<const CubeModel> m, const QString& path);
    QString itemArcs(int itemId) const;

    CubeSession session_;
    QString modelPath_, sentencesPath_;
    widgets::CubeChartView* chart_ = nullptr;
    widgets::CubeTreeView* tree_ = nullptr;
    QComboBox* sentenceBox_ = nullptr;
    QComboBox* strategyBox_ = nullptr;
    QSpinBox* beamBox_ = nullptr;
    QPushButton* applyButton_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QTableWidget* beamTable_ = nullptr;
    QTableWidget* goldTable_ = nullptr;
    QTextBrowser* updateView_ = nullptr;
    QLabel* status_ = nullptr;
    QFutureWatcher<std::shared_ptr<const CubeModel>>* watcher_ = nullptr;
    QString lastStep_;
};

} // namespace prunescope::gui
