// View ▸ Max-Rule Tree: the predicted-parse view shows the max-rule-product tree (Petrov & Klein
// 2007, core/parse/MaxRuleDecoder.h) of the current sentence under the current mask. Decoding
// (inside, outside, the max-rule pass: up to about a second for 40 words on a split-merge grammar)
// runs on a BackgroundTask; a newer mask cancels it (the decoder polls per chart width).
#include "app/gui/explorer/ExplorerPanel.h"
#include "core/eval/Evalb.h"
#include "core/treebank/Binarize.h"

#include <QAction>

namespace prunescope::gui {

void ExplorerPanel::createMaxRuleAction() {
    maxRuleAct_ = new QAction(tr("&Max-Rule Tree"), this);
    maxRuleAct_->setObjectName("maxRuleTreeAction");
    maxRuleAct_->setCheckable(true);
    maxRuleAct_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    maxRuleAct_->setToolTip(
        tr("Show the max-rule-product tree (Petrov & Klein 2007) in the predicted-parse view: the "
           "tree whose anchored rules have the largest product of posteriors, summed over a fine "
           "grammar's refinements (one inside-outside pass per mask, in the background). The "
           "chart and the statistics stay the Viterbi parser's."));
    connect(maxRuleAct_, &QAction::toggled, this, [this] { refreshTrees(); });
    maxRuleTask_ = new BackgroundTask(this);
    auto again = [this] {
        if (maxRuleDirty_ || maxRuleAct_->isChecked()) refreshTrees();
    };
    connect(maxRuleTask_, &BackgroundTask::finished, this, [this, again] {
        if (maxRulePending_) maxRuleShown_ = std::move(*maxRulePending_);
        maxRulePending_.reset();
        again();
    });
    connect(maxRuleTask_, &BackgroundTask::cancelled, this, [this, again] {
        maxRulePending_.reset();
        again();
    });
    connect(maxRuleTask_, &BackgroundTask::failed, this, [this, again] {
        maxRulePending_.reset();
        again();
    });
}

bool ExplorerPanel::maxRuleBusy() const {
    return maxRuleTask_->isRunning() || maxRuleDirty_;
}

// Shows the cached tree of (sentence, mask), or starts decoding it and says so.
void ExplorerPanel::showMaxRuleTree() {
    const bool current = maxRuleShown_ && maxRuleShown_->words == session_->words() &&
                         maxRuleShown_->mask == session_->mask() &&
                         maxRuleGrammar_ == &session_->grammar();
    if (!current) {
        predicted_->setTitle(tr("Max-rule tree"));
        predicted_->setMessage(tr("Decoding the max-rule tree…"));
        if (session_->gold()) goldTree_->setTree(*session_->gold());
        if (maxRuleTask_->isRunning()) { // superseded: cancel, then come back here
            maxRuleDirty_ = true;
            maxRuleTask_->cancel();
            return;
        }
        maxRuleDirty_ = false;
        if (!maxRule_ || maxRuleGrammar_ != &session_->grammar()) {
            maxRule_ = std::make_shared<MaxRuleDecoder>(session_->grammar());
            maxRuleGrammar_ = &session_->grammar();
        }
        auto shown = std::make_shared<MaxRuleShown>(
            MaxRuleShown{session_->words(), session_->mask(), std::nullopt, QString()});
        auto decoder = maxRule_;
        auto grammar = session_->grammarPtr(); // outlives the task
        maxRulePending_ = shown;
        maxRuleTask_->start([shown, decoder, grammar](const Progress& progress) {
            try {
                const MaxRuleResult r = decoder->decode(shown->words, &shown->mask, progress);
                if (r.success) shown->tree = debinarize(r.binarized);
            } catch (const Cancelled&) {
                throw;
            } catch (const std::exception& e) { // e.g. over the inside-outside memory budget
                shown->error = QString::fromUtf8(e.what());
            }
        });
        return;
    }
    const MaxRuleShown& m = *maxRuleShown_;
    if (!m.error.isEmpty() || !m.tree) {
        predicted_->setTitle(tr("Max-rule tree"));
        predicted_->setMessage(m.error.isEmpty()
                                   ? tr("No derivation under this mask: no max-rule tree.")
                                   : tr("Max-rule decoding failed: %1").arg(m.error));
        if (session_->gold()) goldTree_->setTree(*session_->gold());
        return;
    }
    QString title = tr("Max-rule tree");
    if (const Tree* gold = session_->gold()) {
        title += tr(" (F1 %1)").arg(100 * sentenceF1(*gold, *m.tree), 0, 'f', 2);
        goldTree_->setTree(*gold);
        goldTree_->setMatchSet(scoredBrackets(*m.tree), true);
        predicted_->setTitle(title);
        predicted_->setTree(*m.tree);
        predicted_->setMatchSet(session_->goldBrackets(), true);
    } else {
        predicted_->setTitle(title);
        predicted_->setTree(*m.tree);
        predicted_->setMatchSet({}, false);
    }
}

} // namespace prunescope::gui
