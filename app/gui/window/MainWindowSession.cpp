// File ▸ Save Session… / Open Session… (`prunescope --session FILE`) and File ▸ Print… of the main
// window (issue 18). A session (app/gui/window/SessionFile.h) names the documents, the sentence,
// the mask with its undo history and the view settings; opening one loads and checks every file it
// names before anything is replaced, so an error leaves the window as it was.
#include "app/gui/explorer/MaskComparisonPanel.h"
#include "app/gui/explorer/SentenceSession.h"
#include "app/gui/window/MainWindow.h"
#include "app/gui/window/SessionFile.h"
#include "core/parse/Parser.h"
#include "widgets/FigurePrint.h"

#include <QAction>
#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QPrintDialog>
#include <QPrinter>
#include <QStatusBar>
#include <QVBoxLayout>
#include <algorithm>
#include <iterator>

namespace prunescope::gui {
namespace {

static_assert(std::size(kAllQuantities) == 5, "kQuantityNames lists every Quantity");
const char* const kQuantityNames[] = {"keep", "inside", "constituents", "recall",
                                      "marginal"}; // Quantity order
const char* const kColorMapNames[] = {
    "viridis", "cividis"}; // ColorMapKind order (the regret overlay's diverging map is never saved)
const char* const kAnimationNames[] = {"instant", "animated", "step"}; // AnimationMode order

template <std::size_t N> int indexOf(const char* const (&names)[N], const std::string& s) {
    for (std::size_t x = 0; x < N; ++x)
        if (s == names[x]) return static_cast<int>(x);
    return 0;
}

} // namespace

bool MainWindow::saveSession(const QString& path, QString* error) {
    auto fail = [&](const QString& m) {
        if (error) *error = m;
        reportError(m);
        return false;
    };
    const SentenceSession* s = explorer_->session();
    if (!s) return fail(tr("Open a grammar and a sentence first: there is no session to save"));
    SessionFile f;
    f.grammar = grammarPath_.toStdString();
    if (grammarEdited_) f.grammarRules = grammarRuleLines(*grammar_); // edits not saved as a file
    f.policy = policyPath_.toStdString();
    f.sentences = sentencesPath_.toStdString();
    f.typed = sentenceIdx_ >= fileSentences_;
    f.sentenceIndex = f.typed ? 0 : sentenceIdx_;
    f.words = s->words();
    f.mask = s->mask();
    for (const ExplorerPanel::Edit& e : explorer_->editHistory(&f.undoIndex))
        f.edits.push_back({e.flip, e.i, e.k, e.mask, e.what.toStdString()});
    SessionView& v = f.view;
    v.quantity = kQuantityNames[static_cast<int>(explorer_->quantity())];
    v.colorMap = kColorMapNames[static_cast<int>(explorer_->colorMap())];
    v.animation = kAnimationNames[static_cast<int>(explorer_->animationMode())];
    v.binarizedSymbols = explorer_->showBinarizedSymbols();
    v.presentationFont = explorer_->presentationFont();
    v.chartZoom = explorer_->chartZoom()->zoom();
    v.predictedZoom = explorer_->predictedZoom()->zoom();
    v.goldZoom = explorer_->goldZoom()->zoom();
    if (explorer_->lambdaEditable()) v.lambda = explorer_->lambda();
    try {
        writeSessionFile(path.toStdString(), f);
    } catch (const std::exception& e) {
        return fail(tr("Could not save the session:\n%1").arg(QString::fromStdString(e.what())));
    }
    statusBar()->showMessage(tr("Saved session %1").arg(path), 4000);
    return true;
}

// Every document a session names, loaded and checked before anything in the window changes.
struct MainWindow::SessionDocuments {
    LoadResult grammar, policy, sentences;
};

QString MainWindow::loadSessionDocuments(SessionFile& f, SessionDocuments& d) {
    QString error;
    // An error names the session file, the key and its place.
    auto load = [&](const char* key, const std::string& p, std::initializer_list<FileKind> kinds,
                    LoadResult& out) {
        out = loadFile(QString::fromStdString(p));
        const QString where = QString::fromStdString(f.where[key]) + QStringLiteral(": /") + key +
                              QStringLiteral(": ");
        if (!out.ok())
            error = where + out.error;
        else if (std::find(kinds.begin(), kinds.end(), out.kind) == kinds.end())
            error = where +
                    tr("%1 is a %2 file").arg(QString::fromStdString(p), fileKindName(out.kind));
        return error.isEmpty();
    };
    if (!load("grammar", f.grammar, {FileKind::Grammar}, d.grammar)) return error;
    if (!f.grammarRules.empty()) { // the grammar as edited in the app, over the file as its base
        try {
            d.grammar.grammar = std::make_shared<const Grammar>(
                grammarFromRuleLines(*d.grammar.grammar, f.grammarRules));
        } catch (const std::exception& e) {
            return QString::fromStdString(f.where["grammarRules"]) +
                   tr(": /grammarRules: %1").arg(QString::fromStdString(e.what()));
        }
    }
    if (!f.policy.empty() && !load("policy", f.policy, {FileKind::Policy}, d.policy)) return error;
    if (!f.sentences.empty() &&
        !load("sentences", f.sentences, {FileKind::Treebank, FileKind::Sentences}, d.sentences))
        return error;
    if (!f.typed) {
        const auto count = static_cast<int>(d.sentences.sentences.size());
        if (f.sentenceIndex >= count ||
            d.sentences.sentences[static_cast<std::size_t>(f.sentenceIndex)].words != f.words)
            return QString::fromStdString(f.where["sentence"]) +
                   tr(": /sentence: sentence %1 of %2 is not the saved one (the file has %3 "
                      "sentences, or it changed)")
                       .arg(f.sentenceIndex + 1)
                       .arg(QString::fromStdString(f.sentences))
                       .arg(count);
        return {};
    }
    try { // a typed sentence over the explorer's memory budget: refused before anything changes
        checkSessionFits(*d.grammar.grammar, static_cast<int>(f.words.size()),
                         kDefaultParserMemoryBudget);
    } catch (const std::exception& e) {
        return QString::fromStdString(f.where["sentence"]) +
               tr(": /sentence: %1").arg(QString::fromStdString(e.what()));
    }
    return {};
}

bool MainWindow::applySession(const SessionFile& f, const SessionDocuments& d) {
    pending_.clear();
    apply(d.grammar);
    grammarEdited_ = !f.grammarRules.empty();
    if (f.policy.empty()) {
        policy_.reset();
        policyPath_.clear();
    } else {
        apply(d.policy);
    }
    if (f.sentences.empty()) {
        sentences_.clear();
        sentencesPath_.clear();
        fileSentences_ = 0;
        refreshSentenceBox();
    } else {
        apply(d.sentences);
    }
    if (f.typed) {
        QStringList words;
        for (const auto& w : f.words)
            words << QString::fromStdString(w);
        parseTypedSentence(words.join(' '));
    } else {
        selectSentence(f.sentenceIndex);
    }
    refreshTitle();
    std::vector<ExplorerPanel::Edit> edits;
    for (const SessionEdit& e : f.edits)
        edits.push_back({e.flip, e.i, e.k, e.mask, QString::fromStdString(e.what)});
    const bool history = explorer_->restoreEditHistory(edits, f.undoIndex, f.mask);
    const SessionView& v = f.view;
    explorer_->setQuantity(static_cast<Quantity>(indexOf(kQuantityNames, v.quantity)));
    explorer_->setColorMap(static_cast<widgets::ColorMapKind>(indexOf(kColorMapNames, v.colorMap)));
    explorer_->setAnimationMode(
        static_cast<widgets::AnimationMode>(indexOf(kAnimationNames, v.animation)));
    binarizedAct_->setChecked(v.binarizedSymbols);
    presentationAct_->setChecked(v.presentationFont);
    explorer_->chartZoom()->setZoom(v.chartZoom);
    explorer_->predictedZoom()->setZoom(v.predictedZoom);
    explorer_->goldZoom()->setZoom(v.goldZoom);
    if (v.lambda) explorer_->setLambda(*v.lambda);
    return history;
}

bool MainWindow::openSession(const QString& path, QString* error) {
    auto fail = [&](const QString& m) {
        const QString msg = tr("Could not open the session %1:\n%2\n\nNothing was changed.")
                                .arg(QFileInfo(path).fileName(), m);
        if (error) *error = msg;
        reportError(msg);
        return false;
    };
    SessionFile f;
    try {
        f = readSessionFile(path.toStdString());
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()));
    }
    SessionDocuments documents;
    if (const QString why = loadSessionDocuments(f, documents); !why.isEmpty()) return fail(why);
    const bool history = applySession(f, documents);
    statusBar()->showMessage(
        history ? tr("Opened session %1").arg(QFileInfo(path).fileName())
                : tr("Opened session %1: the mask is restored, but its undo history no longer "
                     "applies (the policy changed) and was dropped")
                      .arg(QFileInfo(path).fileName()),
        8000);
    return true;
}

bool MainWindow::printViews(QPrinter& printer, bool chart, bool trees, bool caption,
                            QString* error) {
    if (!explorer_->session()) {
        if (error) *error = tr("Open a sentence first: there is nothing to print");
        return false;
    }
    std::vector<widgets::FigurePage> pages;
    const QString text = caption ? explorer_->figureCaption() : QString();
    if (chart) pages.push_back({explorer_->heatMap(), text});
    if (trees) {
        pages.push_back({explorer_->predictedView(), text});
        if (explorer_->session()->hasGold()) pages.push_back({explorer_->goldView(), QString()});
    }
    const bool focused = explorer_->heatMap()->hasFocus(); // no keyboard-focus frame on paper
    if (focused) explorer_->heatMap()->clearFocus();
    const bool ok = widgets::printFigures(printer, pages, error);
    if (focused) explorer_->heatMap()->setFocus();
    return ok;
}

void MainWindow::printDialog() {
    if (!explorer_->session())
        return reportError(tr("Open a sentence first: there is nothing to print"));
    QPrinter printer(QPrinter::HighResolution);
    QPrintDialog dialog(&printer, this);
    dialog.setWindowTitle(tr("Print Chart and Trees"));
    auto* options = new QWidget;
    options->setWindowTitle(tr("PruneScope"));
    auto* chart = new QCheckBox(tr("The chart heat map (page 1)"));
    auto* trees = new QCheckBox(tr("The predicted and gold trees (one page each)"));
    auto* caption = new QCheckBox(tr("Caption: sentence, policy, λ, F1, pushes"));
    for (QCheckBox* c : {chart, trees, caption})
        c->setChecked(true);
    auto* lay = new QVBoxLayout(options);
    for (QCheckBox* c : {chart, trees, caption})
        lay->addWidget(c);
    lay->addStretch(1);
    dialog.setOptionTabs({options});
    if (dialog.exec() != QDialog::Accepted) return;
    QString err;
    if (!printViews(printer, chart->isChecked(), trees->isChecked(), caption->isChecked(), &err))
        reportError(err);
    else
        statusBar()->showMessage(tr("Printed"), 4000);
}

} // namespace prunescope::gui
