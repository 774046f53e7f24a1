#pragma once
// The frontier window (Vieira & Eisner 2017, sec. 7, Fig. 2): every known policy on a
// runtime/accuracy plot, a lambda slider (and a draggable iso-reward line) highlighting the policy
// that maximizes accuracy - lambda * runtime among the shown ones, export of that policy with its
// lambda, metrics and provenance, background LOLS runs (sec. 4) whose iterations appear on the plot
// as they are committed, and the regret view (sec. 7.3).
#include "app/gui/frontier/FrontierModel.h"
#include "app/gui/frontier/TrainingQueue.h"
#include "core/lols/LolsRetrain.h"
#include "core/policy/BaselineRetrain.h"
#include "core/util/BinarySection.h"
#include "widgets/FrontierPlot.h"
#include "widgets/LambdaSlider.h"

#include <QMainWindow>
#include <QPointer>

#include <functional>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;

namespace prunescope::gui {

class MainWindow;
class RegretWindow;
class TrainingPanel;

// samples/policies/frontier.json of the bundled sample, or "" if absent.
QString defaultFrontierPath();

class FrontierWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit FrontierWindow(QWidget* parent = nullptr, bool openDefault = true);
    ~FrontierWindow() override;

    // Opens (adds) a frontier.json or follows a LOLS run directory. false + message on error.
    bool openFrontier(const QString& path, QString* error = nullptr);
    bool openRunDirectory(const QString& dir, QString* error = nullptr);
    // File ▸ Recent LOLS Runs (RecentRuns.h): runs started here or opened, across restarts.
    QMenu* recentRunsMenu() const { return recentRunsMenu_; }
    void fillRecentRuns(); // rebuilds the menu (also when it is about to show)
    bool openPath(const QString& path, QString* error = nullptr); // either, by kind

    void setMeasures(RuntimeMeasure rt, AccuracyMeasure acc);
    // Only policies evaluated on one set are shown and compared (EvaluationSet.h): its key, the
    // selector listing every set with its policy count, and the choice ("" = the model's default).
    void setEvaluationSet(const std::string& key);
    const std::string& evaluationSet() const { return evalSet_; }
    QComboBox* evaluationSetBox() const { return evalSetBox_; }
    void setLambda(double lambda); // moves the slider; selects the optimal shown policy
    double lambda() const { return slider_->lambda(); }
    // The highlighted point (index into view().points) and its record (index into
    // model().records()).
    int selectedPoint() const { return selected_; }
    int selectedRecord() const;
    void selectPoint(int index); // explicit choice (click); moves lambda into its optimal range
    const FrontierModel& model() const { return model_; }
    const FrontierModel::View& view() const { return view_; }

    // The selected policy as exported: its file with meta.lambda = the current lambda, the point's
    // metrics and its provenance. Throws InputError if it has no readable policy file.
    Policy exportedPolicy() const;
    // Why the selected policy cannot be loaded or exported ("" if it can): no policy file recorded
    // (the unpruned parser, a point written without one) or the file is missing.
    QString selectionProblem() const;
    // "Load into explorer": if the attached explorer's mask is hand-edited, asks "Replace your
    // edited mask?" (No: nothing happens, returns false); then opens the selected policy there and,
    // once loaded, carries the frontier's λ (in its unit) into the explorer's λ field.
    bool loadSelectedIntoExplorer();
    // The question above; a QMessageBox by default (tests answer it themselves).
    using ConfirmFunction =
        std::function<bool(QWidget* parent, const QString& question, const QString& detail)>;
    void setConfirmFunction(ConfirmFunction f) { confirm_ = std::move(f); }
    // "Retrain this point…" (FrontierRetrain.cpp): for a selected baseline point that cannot be
    // loaded, its recorded settings (core/policy/BaselineRetrain.h); retrainProblem() says why it
    // cannot be retrained ("" if it can). retrainSelected() asks the retrain dialog (which shows
    // the settings and the equivalent command and chooses the output directory), then trains in
    // the background; when done the policy file is written to <dir>/<id>.json and the point is
    // loadable. Returns false if nothing was started.
    // A selected LOLS iteration without its policy file (FrontierRetrainLols.cpp) is retrained
    // from its run's config.json (core/lols/LolsRetrain.h) into a new run directory chosen in
    // the LOLS retrain dialog; when its dev evaluation equals the recorded one, the point gets
    // that directory's policies/iter-NNN.json. The progress bar and "Cancel retrain" show while
    // either kind of retrain runs.
    BaselineRetrainSettings retrainSettings() const;
    LolsRetrainSettings selectedLolsRetrainSettings() const;
    QString retrainProblem() const;
    bool retrainSelected();
    BackgroundTask* retrainTask() const { return retrainTask_; }
    using RetrainDialogFunction = std::function<bool(
        QWidget* parent, const BaselineRetrainSettings& settings, QString& outDir)>;
    void setRetrainDialogFunction(RetrainDialogFunction f) { retrainDialog_ = std::move(f); }
    using LolsRetrainDialogFunction =
        std::function<bool(QWidget* parent, const LolsRetrainSettings& settings, QString& outDir)>;
    void setLolsRetrainDialogFunction(LolsRetrainDialogFunction f) {
        lolsRetrainDialog_ = std::move(f);
    }
    // Binary weight blocks by default; WeightsForm::Json writes the all-JSON form (readable,
    // larger).
    bool exportSelected(const QString& path, QString* error = nullptr,
                        WeightsForm form = WeightsForm::Binary);
    bool savePlot(const QString& path, QString* error = nullptr); // PNG/PDF of the frontier

    int startLols(const LolsJobSpec& spec); // queues a run
    TrainingQueue* queue() const { return queue_; }
    // GUI-thread time of the last committed iteration's update (model, view, replot), ms.
    double lastIterationMs() const { return lastIterationMs_; }
    // How often the view (model view, plot, slider, selection) was rebuilt: opening a run directory
    // rebuilds it once, not once per committed iteration.
    int viewRefreshes() const { return viewRefreshes_; }
    TrainingPanel* trainingPanel() const { return panel_; }
    widgets::FrontierPlot* plot() const { return plot_; }
    widgets::LambdaSlider* slider() const { return slider_; }
    RegretWindow* regretWindow(); // created on first use, set up for the selected policy and lambda

    // The explorer: "Load into explorer" opens the policy there; the regret overlay draws on it.
    void attachMainWindow(MainWindow* w);
    // The View menu hook: shows (creating once) the frontier window of `w`.
    static FrontierWindow* showFor(MainWindow* w);

  signals:
    void loadPolicyRequested(const QString& path);
    void pointRetrained(const QString& id, const QString& policyPath); // or failed: empty path
    void selectionChanged(int point);

  private:
    QMenu* recentRunsMenu_ = nullptr;
    void buildUi(); // FrontierWindowUi.cpp, with its steps:
    QGroupBox* buildAxesGroup(QWidget* side);
    QGroupBox* buildSelectionGroup(QWidget* side, QPushButton*& regretBtn, QPushButton*& trainBtn);
    void buildDocks(QWidget* side);
    void buildMenus();
    void connectControls(QPushButton* regretBtn, QPushButton* trainBtn);
    void refreshView();
    void refreshEvaluationSets();
    void refreshSelection();            // selects the best shown point for the current lambda
    void showSelection(int point);      // selects view point `point` (-1: none) and shows it
    void selectRecordPoint(int record); // its point if shown, else refreshSelection()
    void onIteration(int id, const QString& runDir, const LolsIterationRecord& r,
                     const nlohmann::json& config);
    void launchDialog();
    void chooseExport();
    void chooseSavePlot();
    void openDialog(bool directory);
    void openRegret();
    void refreshRetrain();                          // the button's state and tooltip
    QWidget* buildRetrainProgress(QWidget* parent); // progress bar + "Cancel retrain"
    bool retrainSelectedLols();

    FrontierModel model_;
    FrontierModel::View view_;
    RuntimeMeasure runtime_ = RuntimeMeasure::Mpush;
    AccuracyMeasure accuracy_ = AccuracyMeasure::F1;
    int selected_ = -1;
    bool lambdaInitialized_ = false;
    QString grammarPath_, frontierPath_;
    widgets::FrontierPlot* plot_ = nullptr;
    widgets::LambdaSlider* slider_ = nullptr;
    QComboBox *runtimeBox_ = nullptr, *accuracyBox_ = nullptr, *evalSetBox_ = nullptr;
    std::string evalSet_;
    QCheckBox *logBox_ = nullptr, *arrowsBox_ = nullptr, *conesBox_ = nullptr,
              *unprunedBox_ = nullptr;
    QLabel* info_ = nullptr;
    QPushButton *loadBtn_ = nullptr, *exportBtn_ = nullptr, *retrainBtn_ = nullptr;
    BackgroundTask* retrainTask_ = nullptr;
    RetrainDialogFunction retrainDialog_;
    LolsRetrainDialogFunction lolsRetrainDialog_;
    TrainingQueue* queue_ = nullptr;
    TrainingPanel* panel_ = nullptr;
    QPointer<MainWindow> main_;
    RegretWindow* regret_ = nullptr;
    ConfirmFunction confirm_;
    double lastIterationMs_ = 0;
    int viewRefreshes_ = 0;
    bool batchingIterations_ =
        false; // openRunDirectory: iterations arrive together, refresh once after
};

} // namespace prunescope::gui
