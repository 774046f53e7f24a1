#pragma once
// The dependency view (Rush & Petrov 2012, vine pruning's arc picture), the main window's
// dependency mode (View > Dependency Mode; `prunescope --dep FILE`): for one sentence and a
// dependency model, the arc matrix (heads x modifiers, root row included) coloured by each arc's
// max-marginal relative to the best tree or by the stage that pruned it; the gold and predicted
// trees as arc diagrams (arcs that differ marked); one alpha slider per pruning stage that
// re-runs the stages live; a click on an arc cell flips its mask bit and re-parses (the same code
// as `prunescope-cli dep parse --mask-file`, DepSession.h). Work runs on a BackgroundTask; requests
// made while one runs are coalesced into the next.
#include "app/gui/dep/DepSession.h"
#include "app/gui/window/BackgroundTask.h"
#include "core/filters/FilterExplanation.h"

#include <exception>
#include <optional>

#include <QElapsedTimer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QSlider;
class QToolBar;

namespace prunescope::widgets {
class ArcMatrixView;
class CubeTreeView;
class ZoomArea;
} // namespace prunescope::widgets

namespace prunescope::gui {

// The bundled sample's dependency model and sentences (samples/dep/), "" if absent.
QString defaultDepModelPath();
QString defaultDepSentencesPath();

class DepExplorerPanel : public QWidget {
    Q_OBJECT
  public:
    // openDefault: open the bundled sample (samples/dep/).
    explicit DepExplorerPanel(QWidget* parent = nullptr, bool openDefault = true);
    ~DepExplorerPanel() override;

    // Synchronous loads (a model file is a few MB); false + message (file:line) on error, the
    // previous document kept. Errors are also shown on the status line and emitted.
    bool openSentences(const QString& path, QString* error = nullptr);
    bool openModel(const QString& path, QString* error = nullptr);
    // No stages, or the model's own first-order max-marginal pass at alpha.
    void setModelMaxMarginalStage(bool on, double alpha = 0.5);
    // Any stages (a cascade's; nullptr = none): one alpha slider each, at the set's defaults.
    void setStageSet(std::shared_ptr<const DepStageSet> stages);
    // A vine cascade (vine-train; Rush & Petrov 2012) as the stages, at its dev-chosen alphas; its
    // final model is opened too when the model shown is not already one (and the file exists).
    bool openCascade(const QString& path, QString* error = nullptr);
    // An arc filter (filter-train; Cherry & Bergsma 2011) as the pipeline's first stage "filter",
    // before the other stages (as `dep-eval --filter F --cascade C`), at the file's threshold (no
    // slider). The panel keeps the last two filters opened; the filter combo (setActiveFilter)
    // chooses the active one (-1 = none), and arcs the other one decides differently are outlined.
    bool openFilter(const QString& path, QString* error = nullptr);
    void setActiveFilter(int index);
    int activeFilter() const { return activeFilter_; }
    int filterCount() const { return static_cast<int>(filters_.size()); }
    // The active filter's explanation of the current sentence (nullptr without one).
    const ArcFilterExplanation* filterExplanation() const {
        return filterExp_ ? &*filterExp_ : nullptr;
    }
    QString arcTooltip(int h, int m) const;

    void selectSentence(int index);
    void setAlpha(int stage, double alpha); // moves the slider too
    void flipArc(int h, int m);
    void clearFlips();
    void setColoring(int coloring); // widgets::ArcColoring as int
    bool exportMask(const QString& path, QString* error = nullptr) const;
    // Writes the tree shown (flips included) by the file name's format, .conllu or .dp
    // (core/dep/DepWriter.h, what `dep parse --out` writes); false with a reason if there is none.
    bool exportParse(const QString& path, QString* error = nullptr) const;

    const DepSession& session() const { return session_; }
    widgets::ArcMatrixView* matrix() const { return matrix_; }
    // Zoom (issue 42, "zoom in every view"): the tree and the arc matrix each sit in a ZoomArea
    // (Ctrl + wheel; the View menu's zoom actions reach the one holding the focus, else the
    // matrix), as the constituency chart and trees do.
    widgets::ZoomArea* matrixZoom() const { return matrixZoom_; }
    widgets::ZoomArea* treeZoom() const { return treeZoom_; }
    widgets::ZoomArea* focusedZoomArea() const;
    widgets::CubeTreeView* treeView() const { return tree_; }
    QToolBar* toolBar() const { return toolBar_; }
    QList<QSlider*> alphaSliders() const { return sliders_; }
    QString statusText() const;
    bool busy() const { return task_->isRunning() || !session_.current(); }
    // Processes events until the view shows the latest request (tests, screenshots).
    bool waitIdle(int timeoutMs = 20000);

  signals:
    void statusMessage(const QString& message);
    void errorOccurred(const QString& message);
    void analysisShown();

  private:
    static constexpr int kAlphaSteps = 100; // slider positions for alpha in [0, 1]
    void buildUi();
    void buildToolBar();
    void rebuildStageBox();
    void recompute();
    void refresh();
    // The steps of refresh(): each shows one part of the analysis.
    void showNoSentence();
    bool explainFilters(const DepSentence& s,
                        const DepInspection& r); // true if the filter is shown
    void showFilterEvents(bool filterShown, int n);
    long showArcCells(const DepSentence& s, const DepInspection& r, bool filterShown); // differing
    QString statusLine(const DepSentence& s, const DepInspection& r, long differing) const;
    void report(const QString& message);
    // A file that could not be opened: the message in *error (if given) and in a report naming the
    // file and what is kept; returns false.
    bool openFailed(const QString& path, const std::exception& e, const QString& kept,
                    QString* error);
    void applyStages();

    struct LoadedFilter {
        QString path;
        std::shared_ptr<const ArcFilter> filter;
    };
    DepSession session_;
    std::shared_ptr<const DepStageSet> base_; // the stages after the filter (cascade, max-marginal)
    std::vector<LoadedFilter> filters_;       // the last two opened
    int activeFilter_ = -1;
    std::optional<ArcFilterExplanation> filterExp_, otherExp_;
    QComboBox* filterBox_ = nullptr;
    QList<int> sliderStage_; // pipeline stage of each slider
    QString modelPath_, sentencesPath_, cascadePath_;
    BackgroundTask* task_ = nullptr;
    std::shared_ptr<DepAnalysis> pending_;
    bool dirty_ = false;
    QElapsedTimer running_; // since the running computation started
    QToolBar* toolBar_ = nullptr;
    QComboBox* sentenceBox_ = nullptr;
    QComboBox* coloringBox_ = nullptr;
    QGroupBox* stageBox_ = nullptr;
    QHBoxLayout* stageLayout_ = nullptr;
    QCheckBox* mmCheck_ = nullptr;
    QList<QSlider*> sliders_;
    QList<QLabel*> alphaLabels_;
    widgets::CubeTreeView* tree_ = nullptr;
    widgets::ArcMatrixView* matrix_ = nullptr;
    widgets::ZoomArea *matrixZoom_ = nullptr, *treeZoom_ = nullptr;
    QLabel* status_ = nullptr;
};

} // namespace prunescope::gui
