// The main window's documents: background and synchronous loading, applying a loaded grammar,
// policy, treebank or mask, the sentence list, recent files, remembered settings and exports.
#include "app/gui/cube/CubeExplorerWindow.h"
#include "app/gui/dep/ComplexityWindow.h"
#include "app/gui/dep/DepExplorerPanel.h"
#include "app/gui/dep/DepFrontierWindow.h"
#include "app/gui/explorer/SentenceSession.h"
#include "app/gui/frontier/FrontierWindow.h"
#include "app/gui/window/MainWindow.h"
#include "core/vine/EmpiricalComplexity.h"

#include "app/gui/explorer/GrammarEditor.h"
#include "core/cube/CubeModel.h"
#include "core/dep/DepModel.h"
#include "core/filters/ArcFilterFile.h"
#include "core/frontier/FrontierFile.h"
#include "core/parse/Parser.h"
#include "core/vine/VineCascade.h"
#include "widgets/ImageExport.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>

namespace prunescope::gui {

void MainWindow::openDialog(const QString& caption, const QString& filter) {
    QString dir = recent_.isEmpty() ? samplesDir() : QFileInfo(recent_.first()).absolutePath();
    QString p = QFileDialog::getOpenFileName(this, caption, dir, filter);
    if (!p.isEmpty()) openFile(p);
}

namespace {

// The "format" of a JSON file (its top-level key, written near the start by every PruneScope
// writer: keys are sorted, and the large arrays are "stages"/"weights"), or "" when none is seen.
QString jsonFormat(const QString& path) {
    if (QFileInfo(path).suffix().toLower() != "json") return {};
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    static const QRegularExpression format(R"re("format"\s*:\s*"([^"]*)")re");
    const QRegularExpressionMatch m = format.match(QString::fromUtf8(f.read(64 * 1024)));
    return m.hasMatch() ? m.captured(1) : QString();
}

} // namespace

std::optional<bool> MainWindow::openOtherView(const QString& path) {
    const QString format = jsonFormat(path);
    QString error;
    bool ok = true;
    if (format == kDepModelFormat || format == kVineCascadeFormat ||
        format == kArcFilterFormat) { // the dependency view's documents
        setMode(Mode::Dependency);
        DepExplorerPanel* dep = depExplorer();
        ok = format == kDepModelFormat      ? dep->openModel(path, &error)
             : format == kVineCascadeFormat ? dep->openCascade(path, &error)
                                            : dep->openFilter(path, &error);
    } else if (format == "prunescope-dep-frontier") {
        setMode(Mode::Dependency);
        ok = DepFrontierWindow::openFiles(this, {path}, &error) != nullptr;
    } else if (format == kComplexityFormat) {
        setMode(Mode::Dependency);
        ok = ComplexityWindow::openFiles(this, {path}, &error) != nullptr;
    } else if (format == kCubeModelFormat) {
        ok = CubeExplorerWindow::showFor(this)->openModelSync(path, &error);
    } else if (format == kFrontierFormat) {
        ok = FrontierWindow::showFor(this)->openFrontier(path, &error);
    } else {
        return std::nullopt; // a policy, a mask, or not JSON: the explorer's own loader
    }
    if (ok) addRecent(path);
    emit loadFinished(ok, path);
    if (!ok) reportError(tr("Could not open %1:\n%2").arg(QFileInfo(path).fileName(), error));
    return ok;
}

void MainWindow::openFile(const QString& path) {
    if (openOtherView(path)) return; // opened (or refused) in its own view
    pending_ << path;
    if (!loader_->isRunning()) startNextLoad();
}

void MainWindow::startNextLoad() {
    if (pending_.isEmpty()) {
        progress_->hide();
        return;
    }
    QString path = pending_.takeFirst();
    progress_->setRange(0, 0);
    progress_->show();
    statusBar()->showMessage(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    auto result = std::make_shared<LoadResult>();
    loading_ = result;
    loader_->start(
        [path, result](const Progress& progress) { *result = loadFile(path, progress); });
}

bool MainWindow::openFileSync(const QString& path) {
    if (const std::optional<bool> other = openOtherView(path)) return *other;
    LoadResult r = loadFile(path);
    bool ok = apply(r);
    emit loadFinished(ok, path);
    return ok;
}

bool MainWindow::loadSampleSync() {
    bool ok = openFileSync(samplesDir() + "/grammar.gram");
    if (QString p = samplePolicy(); !p.isEmpty()) ok = openFileSync(p) && ok;
    return openFileSync(samplesDir() + "/sentences.mrg") && ok;
}

bool MainWindow::openClassroomSampleSync() {
    const QString dir = samplesDir() + "/classroom";
    const bool ok = openFileSync(dir + "/grammar.gram");
    policy_.reset(); // the bundled policies belong to the treebank grammar
    policyPath_.clear();
    return openFileSync(dir + "/sentences.mrg") && ok;
}

void MainWindow::openGrammarEditor() {
    if (!grammar_) return reportError(tr("Open a grammar first (File ▸ Open Classroom Sample)"));
    int lines = 0;
    if (!GrammarEditor::fits(*grammar_, &lines))
        return reportError(tr("This grammar has %1 rules and words; the editor is for small "
                              "grammars (at most %2), such as File ▸ Open Classroom Sample.")
                               .arg(lines)
                               .arg(GrammarEditor::kMaxLines));
    if (!grammarEditor_ || grammarEditor_->grammar() != grammar_) {
        delete grammarEditor_;
        grammarEditor_ = new GrammarEditor(grammar_, this);
        connect(grammarEditor_, &GrammarEditor::grammarEdited, this, &MainWindow::setEditedGrammar);
    }
    grammarEditor_->show();
    grammarEditor_->raise();
}

void MainWindow::setEditedGrammar(std::shared_ptr<const Grammar> g) {
    grammar_ = std::move(g);
    grammarEdited_ = true; // grammarPath_ still names the file it was edited from
    rebuildSession();
    refreshTitle();
    statusBar()->showMessage(tr("Grammar edited: the sentence was parsed again"), 5000);
}

bool MainWindow::apply(const LoadResult& r) {
    if (!r.ok()) {
        reportError(tr("Could not open %1:\n%2\n\nThe previous document is kept.")
                        .arg(QFileInfo(r.path).fileName(), r.error));
        return false;
    }
    switch (r.kind) {
    case FileKind::Grammar:
        grammar_ = r.grammar;
        grammarPath_ = r.path;
        grammarEdited_ = false;
        break;
    case FileKind::Policy:
        policy_ = r.policy;
        policyPath_ = r.path;
        break;
    case FileKind::Treebank:
    case FileKind::Sentences:
        sentences_ = r.sentences;
        sentenceIdx_ = 0;
        fileSentences_ = sentenceCount();
        if (opt_.useSettings &&
            QSettings().value("lastSentences").toString() == QFileInfo(r.path).absoluteFilePath())
            sentenceIdx_ = std::clamp(QSettings().value("lastSentenceIndex", 0).toInt(), 0,
                                      sentenceCount() - 1);
        sentencesPath_ = r.path;
        refreshSentenceBox();
        break;
    case FileKind::Mask: {
        SentenceSession* s = explorer_->session();
        if (!s || r.mask->n != s->length()) {
            reportError(tr("The mask in %1 is for %2 words, but the current sentence has %3.")
                            .arg(QFileInfo(r.path).fileName())
                            .arg(r.mask->n)
                            .arg(s ? s->length() : 0));
            return false;
        }
        explorer_->setMaskCommand(*r.mask, tr("load mask"));
        addRecent(r.path);
        return true;
    }
    }
    addRecent(r.path);
    rebuildSession();
    refreshTitle();
    saveSettings();
    return true;
}

void MainWindow::rebuildSession() {
    if (!grammar_ || sentenceIdx_ < 0 || sentenceIdx_ >= sentenceCount()) {
        explorer_->setSession(nullptr);
        return;
    }
    // Without a policy the keep probability says nothing: show inside scores instead.
    if (!policy_ && explorer_->quantity() == Quantity::KeepProbability)
        explorer_->setQuantity(Quantity::InsideScore);
    try {
        explorer_->setSession(
            std::make_unique<SentenceSession>(grammar_, policy_, sentences_[sentenceIdx_]));
    } catch (const std::exception& e) {
        explorer_->setSession(nullptr);
        reportError(tr("Cannot parse sentence %1: %2")
                        .arg(sentenceIdx_ + 1)
                        .arg(QString::fromStdString(e.what())));
    }
}

void MainWindow::selectSentence(int index) {
    if (index < 0 || index >= sentenceCount()) return;
    sentenceIdx_ = index;
    sentenceBox_->setCurrentIndex(index);
    rebuildSession();
    if (opt_.useSettings) QSettings().setValue("lastSentenceIndex", index);
}

void MainWindow::parseTypedSentence(const QString& text) {
    SentenceItem item = typedSentence(text);
    if (item.words.empty()) return;
    if (grammar_) {
        // Over the memory budget: refused before it joins the sentence list (issue 46).
        try {
            checkSessionFits(*grammar_, static_cast<int>(item.words.size()),
                             kDefaultParserMemoryBudget);
        } catch (const std::exception& e) {
            reportError(
                tr("Cannot explore the typed sentence: %1").arg(QString::fromStdString(e.what())));
            return;
        }
    }
    sentences_.push_back(std::move(item));
    refreshSentenceBox();
    selectSentence(sentenceCount() - 1);
}

void MainWindow::refreshSentenceBox() {
    sentenceBox_->clear();
    for (int s = 0; s < sentenceCount(); ++s) {
        QStringList w;
        for (const auto& t : sentences_[s].words)
            w << QString::fromStdString(t);
        QString label = QStringLiteral("%1. %2 (%3 words%4)")
                            .arg(s + 1)
                            .arg(w.join(' '))
                            .arg(w.size())
                            .arg(sentences_[s].gold ? QString() : tr(", no gold"));
        sentenceBox_->addItem(label);
    }
    sentenceBox_->setCurrentIndex(sentenceIdx_);
}

void MainWindow::addRecent(const QString& path) {
    QString abs = QFileInfo(path).absoluteFilePath();
    recent_.removeAll(abs);
    recent_.prepend(abs);
    while (recent_.size() > 10)
        recent_.removeLast();
    refreshRecentMenu();
}

void MainWindow::refreshRecentMenu() {
    recentMenu_->clear();
    for (const QString& p : recent_)
        recentMenu_->addAction(QFileInfo(p).fileName() + "  —  " + QFileInfo(p).absolutePath(),
                               this, [this, p] { openFile(p); });
    recentMenu_->setEnabled(!recent_.isEmpty());
}

void MainWindow::saveSettings() {
    if (!opt_.useSettings) return;
    QSettings s;
    s.setValue("recentFiles", recent_);
    if (!grammarPath_.isEmpty())
        s.setValue("lastGrammar", QFileInfo(grammarPath_).absoluteFilePath());
    if (!policyPath_.isEmpty()) s.setValue("lastPolicy", QFileInfo(policyPath_).absoluteFilePath());
    if (!sentencesPath_.isEmpty())
        s.setValue("lastSentences", QFileInfo(sentencesPath_).absoluteFilePath());
    s.setValue("quantity", static_cast<int>(explorer_->quantity()));
    s.setValue("showBinarizedSymbols", explorer_->showBinarizedSymbols());
    s.setValue("presentationFont", explorer_->presentationFont());
}

void MainWindow::restoreSettings() {
    QSettings s;
    recent_ = s.value("recentFiles").toStringList();
    refreshRecentMenu();
    if (s.contains("geometry")) restoreGeometry(s.value("geometry").toByteArray());
    explorer_->setQuantity(static_cast<Quantity>(std::clamp(s.value("quantity", 0).toInt(), 0, 3)));
    binarizedAct_->setChecked(s.value("showBinarizedSymbols", false).toBool());
    presentationAct_->setChecked(s.value("presentationFont", false).toBool());
}

void MainWindow::exportView(bool svg) {
    QString p = QFileDialog::getSaveFileName(
        this, svg ? tr("Export View as SVG") : tr("Export View as PNG"),
        svg ? "prunescope-view.svg" : "prunescope-view.png", svg ? "SVG (*.svg)" : "PNG (*.png)");
    if (p.isEmpty()) return;
    QString err;
    if (mode_ == Mode::Dependency) { // the dependency view as an image (no SVG renderer of its own)
        if (!widgets::saveWidgetImage(dep_, p, &err))
            reportError(err);
        else
            statusBar()->showMessage(tr("Saved %1").arg(p), 4000);
        return;
    }
    if (!(svg ? explorer_->exportSvg(p, &err) : explorer_->exportPng(p, &err)))
        reportError(err);
    else
        statusBar()->showMessage(tr("Saved %1").arg(p), 4000);
}

void MainWindow::exportMask() {
    QString p = QFileDialog::getSaveFileName(this, tr("Export Mask"), "mask.json", "JSON (*.json)");
    if (p.isEmpty()) return;
    QString err;
    if (!explorer_->exportMask(p, &err))
        reportError(err);
    else
        statusBar()->showMessage(tr("Saved %1").arg(p), 4000);
}

} // namespace prunescope::gui
