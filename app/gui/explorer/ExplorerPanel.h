#pragma once
// The explorer for one sentence: heat map, predicted and gold trees, parse statistics and the
// controls for flipping prune bits (with undo/redo), the colour quantity and the change animation.
#include "app/gui/explorer/ChartPresentation.h"
#include "app/gui/explorer/SentenceSession.h"
#include "app/gui/window/BackgroundTask.h"
#include "core/frontier/FrontierFile.h"
#include "core/parse/MaxRuleDecoder.h"
#include "widgets/ChartHeatMap.h"
#include "widgets/TreeView.h"
#include "widgets/ZoomArea.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSlider;
class QSplitter;
class QTabBar;
class QUndoStack;

namespace prunescope::gui {

class CellInspector;
class ReplayController;

// The explorer's arrangement (View ▸ Explorer Layout, the tabs above the views): everything side
// by side, or one large view for a class — the chart or one tree over the
// whole width (a 40-word tree is readable there with the presentation font, issue 18).
enum class ExplorerLayout { ChartAndTrees, Chart, PredictedTree, GoldTree };

// The views a figure can show (File ▸ Export Figure…, --export-chart-figure /
// --export-tree-figure).
enum class FigureView { Chart, PredictedTree, GoldTree };

class ExplorerPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ExplorerPanel(QWidget* parent = nullptr);
    ~ExplorerPanel() override;

    void setSession(std::unique_ptr<SentenceSession> s); // null = nothing to show
    SentenceSession* session() const { return session_.get(); }

    widgets::ChartHeatMap* heatMap() const { return heat_; }
    widgets::TreeView* predictedView() const { return predicted_; }
    widgets::TreeView* goldView() const { return goldTree_; }
    QUndoStack* undoStack() const { return undo_; }
    QAction* resetAction() const { return resetAct_; }
    QAction* keepAllAction() const { return keepAllAct_; }
    QAction* keepGoldAction() const { return keepGoldAct_; }
    // Inspect (right-click or I on a cell, Edit ▸ Inspect Cell on the focused one): the cell's
    // labels, scores and best subtree in a window beside the chart; nothing changes.
    QAction* inspectAction() const { return inspectAct_; }
    // View ▸ Max-Rule Tree (checkable): the predicted-parse view shows the max-rule-product tree
    // (Petrov & Klein 2007; core/parse/MaxRuleDecoder.h) of the current mask instead of the best
    // derivation, with its own F1 in the title; the chart and the statistics stay the parser's.
    QAction* maxRuleTreeAction() const { return maxRuleAct_; }
    bool maxRuleBusy() const; // a max-rule tree is being decoded in the background
    void inspectCell(int i, int k);
    CellInspector* cellInspector() const { return inspector_; }
    // Replay CKY (ExplorerReplay.cpp): builds the chart of the current mask cell by cell; the
    // heat map, statistics and trees show the state after the current cell.
    QAction* replayAction() const { return replayAct_; }
    ReplayController* replay() const { return replay_; }
    void startReplay();
    void stopReplay();
    QString replayText() const; // the current cell's description, as shown

    void setQuantity(Quantity q);
    Quantity quantity() const { return quantity_; }
    void setColorMap(widgets::ColorMapKind k);
    widgets::ColorMapKind
    colorMap() const; // the user's sequential map (also while an overlay shows)
    // A signed per-span quantity computed elsewhere (the regret window's r̂[keep] − r̂[prune]) shown
    // in place of the colour quantity (ExplorerOverlay.cpp): on the diverging map, on a scale
    // symmetric around 0 (±maxAbs), with its own entry in the colour box while it is on and a
    // "Remove overlay" button. Removing it restores the colour quantity, map and tooltips as they
    // were. Its values belong to one sentence and mask: a flip, undo/redo, new mask, another
    // sentence, a replay or another colour choice removes it (overlayRemoved says why) instead of
    // leaving stale colours.
    struct Overlay {
        QString name;                         // the colour box's entry
        QString title;                        // the legend's
        std::vector<widgets::HeatCell> cells; // i*(n+1)+k, value = the signed quantity
        double maxAbs = 0;
        int decimals = 4;
        std::function<QString(int, int)> tooltip;
    };
    void showOverlay(Overlay o);
    void removeOverlay(const QString& why = {});
    bool overlayShown() const { return overlay_.has_value(); }
    void setAnimationMode(widgets::AnimationMode m);
    // Cell labels: the best unbinarized label (NP, VP, ...; default) or the grammar's binarized
    // symbol (@NP|DT_NN, NP^S) — View ▸ Show Binarized Symbols.
    void setShowBinarizedSymbols(bool on);
    bool showBinarizedSymbols() const { return binarizedLabels_; }
    // Zoom and fit (ExplorerView.cpp): the chart and each tree sit in a ZoomArea; the View menu's
    // zoom actions apply to the one holding the keyboard focus (the chart if none does).
    widgets::ZoomArea* chartZoom() const { return chartZoom_; }
    widgets::ZoomArea* predictedZoom() const { return predictedZoom_; }
    widgets::ZoomArea* goldZoom() const { return goldZoom_; }
    widgets::ZoomArea* focusedZoomArea() const;
    // Presentation font size: the chart, the trees and the statistics in a font 1.6 × the normal
    // one.
    void setPresentationFont(bool on);
    bool presentationFont() const { return presentationFont_; }
    // ExplorerView.cpp. In the large chart (full width), rows are at least kReadableRow px tall
    // (cell labels of 9 pt), kReadableRowWithValues when cells are wide enough to show values
    // (values of 9 pt): the chart scrolls vertically when the window is too low for that.
    void setExplorerLayout(ExplorerLayout l);
    ExplorerLayout explorerLayout() const { return layout_; }
    static constexpr double kReadableRow = 20, kReadableRowWithValues = 30;
    // Displayed values, as the user reads them (for tests and screenshots).
    QString f1Text() const;
    QString constituentsText() const;
    QString rewardText() const;
    QString pushesText() const;
    QString resultText() const;

    // Flips (i,k) through the undo stack; returns false for an unprunable span.
    bool requestFlip(int i, int k);
    void setMaskCommand(const PruningMask& m, const QString& what);

    // Used by the undo commands.
    void applyFlip(int i, int k);
    void applyUndoFlip(int i, int k);
    void applyMask(const PruningMask& m);

    bool exportPng(const QString& path, QString* error = nullptr);
    bool exportSvg(const QString& path, QString* error = nullptr);
    bool exportMask(const QString& path, QString* error = nullptr);
    // One view alone as .svg, .pdf or .png (scale: PNG pixels per view pixel), optionally captioned
    // with figureCaption(); atomic (widgets/FigureExport.h).
    bool exportFigure(FigureView v, const QString& path, double scale, bool caption,
                      QString* error = nullptr);
    // "Sentence: …  Policy: NAME (mask: the policy's | edited)  λ = …  F1 = …  pushes = …"
    QString figureCaption() const;

    // Session files (ExplorerSession.cpp): the undo history as plain edits (a flip, or a whole mask
    // with its undo text) and the undo index; restoreEditHistory replays them from the policy mask
    // and returns false (the history dropped, `mask` set as one edit) if they do not lead to
    // `mask`.
    struct Edit {
        bool flip = true;
        int i = 0, k = 0; // a flip
        PruningMask mask; // a mask edit
        QString what;
    };
    std::vector<Edit> editHistory(int* index) const;
    bool restoreEditHistory(const std::vector<Edit>& edits, int index, const PruningMask& mask);
    double lambda() const;
    bool lambdaEditable() const; // false when the policy states λ
    void setLambda(double v);
    // λ carried from the frontier window ("Load into explorer"), in `unit` (a lambdaUnitFor
    // string): shown, editable, for every sentence of the current session's policy (over the
    // policy's own λ) until another policy is loaded.
    void setFrontierLambda(double v, const std::string& unit);
    // True when the mask differs from the policy's mask (flips, keep all / gold, a restored
    // session).
    bool hasHandEdits() const;
    widgets::AnimationMode animationMode() const;

  signals:
    void statusMessage(const QString& text);
    void sessionUpdated();
    void overlayRemoved(const QString& why);

  private:
    // ExplorerPanelBuild.cpp: the constructor's steps
    void createViews();
    void createMaskActions();
    QGroupBox* buildParseStats();
    QSplitter* buildViewSplit(QGroupBox* stats);
    void connectViews();
    void buildControls(QWidget* bar);
    void refreshAll(bool withChanges);
    void refreshStats();
    void refreshTrees();
    // ExplorerMaxRule.cpp: the max-rule tree of the current sentence and mask (cached per mask)
    void createMaxRuleAction();
    void showMaxRuleTree();
    std::vector<widgets::HeatCell> currentCells();
    // ExplorerReplay.cpp
    QWidget* buildReplayBar();
    void showReplayStep();
    void refreshReplayStats();
    void refreshReplayTrees();
    QString fragmentCountText(int fragments) const; // "1 fragment", "3 fragments"
    // A change animation in progress (Animated / Step by step): at "cell s of T" the statistics and
    // trees show the state after s cells. The parse before the flip is kept until the
    // whole-sentence cell is revealed; constituents count the revealed cells' changes.
    struct PreviousParse {
        bool success = false;
        double logProb = 0, f1 = 0;
        Tree tree;
        long constituents = 0, pushes = 0;
        std::vector<LabeledSpan> brackets;
    };
    void rememberPreviousParse();
    bool changeInProgress() const;
    bool rootRevealed() const;
    long constituentsRevealed() const;
    void refreshChangeStepStats();
    void refreshPreviousTrees(); // the whole-sentence cell still holds the previous parse
    void countConstituentChanges(const std::vector<widgets::CellMark>& marks); // fills postDelta_
    std::optional<PreviousParse> previous_;
    std::vector<long> postDelta_; // per change mark: post-layer constituents appeared − vanished

    std::unique_ptr<SentenceSession> session_;
    QAction* maxRuleAct_ = nullptr;
    BackgroundTask* maxRuleTask_ = nullptr; // decodes off the GUI thread; one at a time
    bool maxRuleDirty_ = false;             // a newer (sentence, mask) waits for the task
    std::shared_ptr<MaxRuleDecoder> maxRule_;
    const Grammar* maxRuleGrammar_ = nullptr; // the grammar maxRule_ was made for
    struct MaxRuleShown {
        std::vector<std::string> words;
        PruningMask mask;
        std::optional<Tree> tree; // empty: no derivation under the mask
        QString error;
    };
    std::optional<MaxRuleShown> maxRuleShown_;
    std::shared_ptr<MaxRuleShown> maxRulePending_; // what the running task fills
    // The last presentation of session_'s cells and what it was made for: a flip from that mask
    // re-reads only the cells it changed (presentCellsAfterFlip). Cleared with a new session.
    struct Presented {
        Quantity quantity;
        bool binarizedLabels;
        PruningMask mask;
        std::vector<widgets::HeatCell> cells;
    };
    std::optional<Presented> presented_;
    CellPresentation present(std::optional<std::pair<int, int>> flipped = std::nullopt);
    Quantity quantity_ = Quantity::KeepProbability;
    bool binarizedLabels_ = false;
    bool presentationFont_ = false;
    ExplorerLayout layout_ = ExplorerLayout::ChartAndTrees;
    QTabBar* layoutBar_ = nullptr;
    QWidget* treeSide_ = nullptr; // statistics and trees
    QWidget* buildLayoutBar();    // ExplorerView.cpp
    void keepChartRowsReadable();
    widgets::ZoomArea *chartZoom_ = nullptr, *predictedZoom_ = nullptr, *goldZoom_ = nullptr;
    QWidget* stats_ = nullptr;
    widgets::ChartHeatMap* heat_ = nullptr;
    widgets::TreeView* predicted_ = nullptr;
    widgets::TreeView* goldTree_ = nullptr;
    QUndoStack* undo_ = nullptr;
    QAction *resetAct_ = nullptr, *keepAllAct_ = nullptr, *keepGoldAct_ = nullptr;
    QAction* inspectAct_ = nullptr;
    CellInspector* inspector_ = nullptr; // created on first use
    QComboBox *quantityBox_ = nullptr, *colorBox_ = nullptr, *modeBox_ = nullptr;
    QSlider* speed_ = nullptr;
    QPushButton *stepBtn_ = nullptr, *finishBtn_ = nullptr;
    QDoubleSpinBox* lambda_ = nullptr;
    QLabel *parseValue_ = nullptr, *f1Value_ = nullptr, *constValue_ = nullptr,
           *pushValue_ = nullptr, *keptValue_ = nullptr, *logProbValue_ = nullptr,
           *rewardValue_ = nullptr, *changesValue_ = nullptr;
    QLabel* rewardLabel_ = nullptr;
    ReplayController* replay_ = nullptr;
    QAction* replayAct_ = nullptr;
    QWidget* replayBar_ = nullptr;
    QLabel* replayInfo_ = nullptr;
    QPushButton* replayPlay_ = nullptr;
    RuntimeMeasure rewardMeasure_ = RuntimeMeasure::Mpush; // the policy's λ unit
    struct FrontierLambda {
        std::shared_ptr<const Policy> policy;
        double value = 0;
        RuntimeMeasure measure = RuntimeMeasure::Mpush;
    };
    std::optional<FrontierLambda> frontierLambda_;
    void applyFrontierLambda();
    // ExplorerOverlay.cpp
    struct OverlayState {
        QString name;
        widgets::ColorMapKind previousMap = widgets::ColorMapKind::Viridis;
    };
    std::optional<OverlayState> overlay_;
    QPushButton* removeOverlayBtn_ = nullptr;
    void endOverlay(const QString& why); // restores the boxes and tooltips; the caller redraws
    void restoreTooltips();
    QPushButton* buildOverlayButton(); // "Remove overlay", hidden while no overlay is shown
};

} // namespace prunescope::gui
