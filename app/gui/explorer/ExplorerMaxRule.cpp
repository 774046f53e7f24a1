// View ▸ Max-Rule Tree: the predicted-parse view shows the max-rule-product tree (Petrov & Klein
// 2007, core/parse/MaxRuleDecoder.h) of the current sentence under the current mask.
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
           "grammar's refinements (one inside-outside pass per mask). The chart and the "
           "statistics stay the Viterbi parser's."));
    connect(maxRuleAct_, &QAction::toggled, this, [this] { refreshTrees(); });
}

// Decodes once per (sentence, mask); a flip or another sentence decodes again.
void ExplorerPanel::showMaxRuleTree() {
    const Grammar& g = session_->grammar();
    if (!maxRule_ || maxRuleGrammar_ != &g) {
        maxRule_ = std::make_unique<MaxRuleDecoder>(g);
        maxRuleGrammar_ = &g;
        maxRuleShown_.reset();
    }
    if (!maxRuleShown_ || maxRuleShown_->words != session_->words() ||
        !(maxRuleShown_->mask == session_->mask())) {
        MaxRuleShown shown{session_->words(), session_->mask(), std::nullopt, QString()};
        try {
            const MaxRuleResult r = maxRule_->decode(shown.words, &shown.mask);
            if (r.success) shown.tree = debinarize(r.binarized);
        } catch (const std::exception& e) { // e.g. over the inside-outside memory budget
            shown.error = QString::fromUtf8(e.what());
        }
        maxRuleShown_ = std::move(shown);
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
