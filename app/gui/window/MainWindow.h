#pragma once
// The PruneScope main window: documents (grammar, policy, sentences with gold trees), menus,
// recent files and remembered settings, drag and drop, background loading (a BackgroundTask, one
// file at a time), and the explorer. Split by concern: MainWindow.cpp (window, modes, errors),
// MainWindowMenus.cpp (menus, toolbar), MainWindowDocuments.cpp (loading, settings, exports),
// MainWindowSession.cpp (sessions, printing).
#include "app/gui/explorer/ExplorerPanel.h"
#include "app/gui/window/BackgroundTask.h"
#include "app/gui/window/DocumentLoader.h"

#include <QMainWindow>
#include <QStringList>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QStackedWidget;
class QPrinter;
class QToolBar;

namespace prunescope::gui {

struct SessionFile;

class DepExplorerPanel;
class GrammarEditor;
class MaskComparisonPanel;
class TourDialog;

struct MainWindowOptions {
    bool useSettings = true; // restore/save QSettings (off for tests and screenshots)
    bool loadSample = true;  // open the bundled sample (or the remembered documents) on start
};

// The bundled sample's directory (PRUNESCOPE_SAMPLES env var, else the build's samples/).
QString samplesDir();
// samplesDir()/rel if that file exists, else an empty string.
QString sampleFile(const QString& rel);
// The default policy: a baseline from samplesDir()/policies (sorted by name), if any, else empty.
QString samplePolicy();

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(MainWindowOptions opt = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    ExplorerPanel* explorer() const { return explorer_; }
    // Constituency mode (the span chart) or dependency mode (the arc matrix, DepExplorerPanel.h),
    // switched from the View menu; the dependency view is made (and opens the bundled sample, if
    // the options say so) the first time it is shown.
    enum class Mode { Constituency, Dependency };
    void setMode(Mode m);
    Mode mode() const { return mode_; }
    DepExplorerPanel* depExplorer(); // creates it if needed
    // The view the View menu's zoom actions act on: in the current mode's panel, the one holding
    // the keyboard focus (the chart, or the arc matrix, if none does).
    widgets::ZoomArea* focusedZoomArea() const;
    // Loads in the background (queued); emits loadFinished. Errors: errorOccurred + a non-modal
    // dialog.
    // A JSON file of another view (by its "format": dependency model, vine cascade, arc filter,
    // dependency frontier -> the dependency view; cube model -> the cube explorer; frontier.json
    // -> the frontier window) opens there at once: whether it opened, or nullopt when the file is
    // none of those (the explorer's own loader takes it).
    std::optional<bool> openOtherView(const QString& path);
    void openFile(const QString& path);
    // Loads on the calling thread (screenshots, tests). Returns false on error (after reporting
    // it).
    bool openFileSync(const QString& path);
    bool loadSampleSync();
    // File ▸ Open Classroom Sample: samples/classroom's small grammar and sentences, no policy.
    bool openClassroomSampleSync();
    // Edit ▸ Edit Grammar (GrammarEditor.h; refused for grammars over GrammarEditor::kMaxLines):
    // the editor's Apply sets the edited grammar and the sentence is parsed again.
    QAction* editGrammarAction() const { return editGrammarAct_; }
    GrammarEditor* grammarEditor() const { return grammarEditor_; }
    void openGrammarEditor();
    void setEditedGrammar(std::shared_ptr<const Grammar> g);
    // The documents line above the chart ("Grammar: classroom.gram (edited)   Policy: …").
    QString documentsText() const;
    bool isLoading() const { return loader_->isRunning(); }

    int sentenceCount() const { return static_cast<int>(sentences_.size()); }
    // The number of words of sentence `index` of the open document.
    int sentenceLength(int index) const {
        return static_cast<int>(sentences_.at(static_cast<std::size_t>(index)).words.size());
    }
    int sentenceIndex() const { return sentenceIdx_; }
    void selectSentence(int index);
    void parseTypedSentence(const QString& text);
    const Grammar* grammar() const { return grammar_.get(); }
    const Policy* policy() const { return policy_.get(); }
    QAction* showBinarizedSymbolsAction() const { return binarizedAct_; }
    QAction* presentationFontAction() const { return presentationAct_; }
    // View ▸ Compare Masks: a dock comparing two masks of the sentence (MaskComparisonPanel.h).
    MaskComparisonPanel* maskComparison() const { return comparison_; }
    // View ▸ Presentation Mode (F11): presentation font, step-by-step changes, full screen, no
    // toolbar or status bar; off restores the font, the changes mode and the window state.
    QAction* presentationModeAction() const { return presentationModeAct_; }
    void setPresentationMode(bool on);
    // Help ▸ Tour (F1, TourDialog.h; made on first use) and Help ▸ Keyboard Shortcuts.
    QAction* tourAction() const { return tourAct_; }
    QAction* keyboardShortcutsAction() const { return shortcutsAct_; }
    TourDialog* tour();
    // The status bar's hint (what to click, F5, the tour) shown while no message is.
    QLabel* statusHint() const { return hint_; }
    // Sessions and printing (MainWindowSession.cpp). A session file (SessionFile.h) holds the
    // documents, the sentence, the mask with its undo history and the view settings. openSession
    // loads and checks every file it names first: on an error (reported, and in *error) nothing
    // changes.
    bool saveSession(const QString& path, QString* error = nullptr);
    bool openSession(const QString& path, QString* error = nullptr);
    // Prints the chart (page 1) and/or the trees (a page each), optionally captioned, on `printer`.
    bool printViews(QPrinter& printer, bool chart, bool trees, bool caption,
                    QString* error = nullptr);

  signals:
    void loadFinished(bool ok, const QString& path);
    void errorOccurred(const QString& message);

  protected:
    void dragEnterEvent(QDragEnterEvent*) override;
    void dropEvent(QDropEvent*) override;
    void closeEvent(QCloseEvent*) override;

  private:
    // Menus and toolbar (MainWindowMenus.cpp): buildMenus calls one function per menu.
    void buildMenus();
    void buildFileMenu();
    void buildEditMenu();
    void buildSentenceMenu();
    void buildViewMenu();
    void buildHelpMenu();
    void buildToolBar();
    // Documents, settings and exports (MainWindowDocuments.cpp).
    void startNextLoad();
    bool apply(const LoadResult& r);
    // Sessions (MainWindowSession.cpp): every named document loaded and checked first (an error
    // message, nothing changed), then applied.
    struct SessionDocuments;
    QString loadSessionDocuments(SessionFile& f, SessionDocuments& d);
    bool applySession(const SessionFile& f, const SessionDocuments& d); // false: history dropped
    void reportError(const QString& message);
    void rebuildSession();
    void refreshSentenceBox();
    void refreshTitle();
    void addRecent(const QString& path);
    void refreshRecentMenu();
    void saveSettings();
    void restoreSettings();
    void exportView(bool svg);
    void exportMask();
    void openDialog(const QString& caption, const QString& filter);
    void printDialog();

    MainWindowOptions opt_;
    ExplorerPanel* explorer_ = nullptr;
    DepExplorerPanel* dep_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    QToolBar* sentenceToolBar_ = nullptr;
    QAction* modeActions_[2] = {nullptr, nullptr};
    QAction* binarizedAct_ = nullptr;
    QAction* presentationAct_ = nullptr;
    QAction* tourAct_ = nullptr;
    QAction* presentationModeAct_ = nullptr;
    struct BeforePresentation {
        bool font = false;
        widgets::AnimationMode animation{};
        Qt::WindowStates state{};
    } beforePresentation_;
    QAction* shortcutsAct_ = nullptr;
    QAction* editGrammarAct_ = nullptr;
    GrammarEditor* grammarEditor_ = nullptr;
    QList<QAction*> constituencyOnly_; // View entries of the span chart: off in dependency mode
    bool grammarEdited_ = false;       // the grammar in use is an edit of grammarPath_
    TourDialog* tour_ = nullptr;
    QLabel* hint_ = nullptr;
    Mode mode_ = Mode::Constituency;
    std::shared_ptr<const Grammar> grammar_;
    std::shared_ptr<const Policy> policy_;
    std::vector<SentenceItem> sentences_;
    int sentenceIdx_ = -1;
    int fileSentences_ = 0; // sentences_ from the file; typed ones follow
    MaskComparisonPanel* comparison_ = nullptr;
    QString grammarPath_, policyPath_, sentencesPath_;
    QStringList pending_;
    BackgroundTask* loader_ = nullptr;
    std::shared_ptr<LoadResult> loading_; // written by the loader, read when it has finished
    QComboBox* sentenceBox_ = nullptr;
    QLineEdit* typedEdit_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* docLabel_ = nullptr;
    QStringList recent_;
};

} // namespace prunescope::gui
