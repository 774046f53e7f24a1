// Showing the dependency view's sentence: the arc matrix, the tree, the status line and tooltips.
#include "app/gui/dep/DepExplorerPanel.h"

#include "core/dep/DepEval.h"
#include "core/filters/FilterStage.h"
#include "widgets/ArcMatrixView.h"
#include "widgets/CubeTreeView.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLabel>

#include <cmath>

namespace prunescope::gui {

QString DepExplorerPanel::arcTooltip(int h, int m) const {
    if (!session_.hasAnalysis()) return {};
    const DepSentence& s = session_.sentence();
    const DepInspection& r = session_.inspection();
    const auto w = [&](int i) {
        return QString::fromStdString(s.words[static_cast<std::size_t>(i)]);
    };
    QString t = tr("<b>%1 %2 → %3 %4</b><br>").arg(w(h)).arg(h).arg(w(m)).arg(m);
    const double mm = r.maxMarginals(h, m);
    t += std::isfinite(mm) ? tr("max-marginal %1 (best tree %2, difference %3)<br>")
                                 .arg(mm, 0, 'f', 3)
                                 .arg(r.maxMarginals.best, 0, 'f', 3)
                                 .arg(mm - r.maxMarginals.best, 0, 'f', 3)
                           : tr("no tree under the mask uses this arc<br>");
    const int k = r.prunedByAt(h, m);
    if (k >= 0)
        t += tr("pruned by stage <i>%1</i><br>")
                 .arg(QString::fromStdString(r.stageNames[static_cast<std::size_t>(k)]));
    if (filterExp_ && activeFilter_ >= 0 && h != m && m >= 1) { // Z_a with every event's score
        const ArcFilter& f = *filters_[static_cast<std::size_t>(activeFilter_)].filter;
        const ArcFilterScorer sc(f, s);
        const FilterEvent best = filterExp_->maxEventAt(h, m);
        t += tr("filter: margin %1 vs threshold %2 → %3<br>Z<sub>a</sub>:")
                 .arg(static_cast<double>(filterExp_->margin[filterExp_->idx(h, m)]), 0, 'f', 3)
                 .arg(filterExp_->threshold, 0, 'g', 4)
                 .arg(filterExp_->isFiltered(h, m) ? tr("filtered") : tr("kept"));
        for (const auto& [z, v] : arcFilterEventScores(f, sc, h, m)) {
            const QString line = tr("%1 %2")
                                     .arg(QString::fromStdString(z.name()))
                                     .arg(static_cast<double>(v), 0, 'f', 3);
            t += QStringLiteral("<br>&nbsp;&nbsp;") + (z == best && z.kind != FilterEventKind::None
                                                           ? tr("<b>%1 (max)</b>").arg(line)
                                                           : line);
        }
        if (otherExp_ && otherExp_->isFiltered(h, m) != filterExp_->isFiltered(h, m))
            t += tr("<br>filter %1 %2 this arc")
                     .arg(activeFilter_ == 0 ? "B" : "A",
                          otherExp_->isFiltered(h, m) ? tr("filters") : tr("keeps"));
        t += QStringLiteral("<br>");
    }
    t += r.finalMask.keep(h, m) ? tr("in the final mask") : tr("not in the final mask");
    if (session_.isFlipped(h, m)) t += tr(" (flipped by you)");
    if (s.hasTree() && s.heads[static_cast<std::size_t>(m)] == h) t += tr("<br>gold arc");
    if (r.heads[static_cast<std::size_t>(m)] == h) t += tr("<br>predicted arc");
    return t + tr("<br><i>click to flip its mask bit</i>");
}

void DepExplorerPanel::showNoSentence() {
    matrix_->setWords({});
    matrix_->setMessage(session_.model() ? tr("Open a dependency treebank (.dp, CoNLL)")
                                         : tr("Open a dependency model (dep-train)"));
    tree_->setMessage(tr("No sentence"));
    status_->setText(session_.model() ? tr("No sentences") : tr("No model"));
}

bool DepExplorerPanel::explainFilters(const DepSentence& s, const DepInspection& r) {
    const bool filterShown =
        activeFilter_ >= 0 && !r.stageNames.empty() && r.stageNames[0] == "filter";
    filterExp_.reset();
    otherExp_.reset();
    if (filterShown) {
        filterExp_ = explainArcFilter(*filters_[static_cast<std::size_t>(activeFilter_)].filter, s);
        if (filters_.size() == 2)
            otherExp_ =
                explainArcFilter(*filters_[static_cast<std::size_t>(1 - activeFilter_)].filter, s);
    }
    return filterShown;
}

void DepExplorerPanel::showFilterEvents(bool filterShown, int n) {
    QStringList eventNames, notes;
    if (filterShown) {
        for (int e = 0; e < kFilterEventKinds - 1; ++e)
            eventNames << QString::fromUtf8(filterEventKindName(static_cast<FilterEventKind>(e)));
        for (int t = 0; t <= n; ++t) {
            QStringList roles;
            for (FilterEventKind k : filterExp_->roles[static_cast<std::size_t>(t)])
                roles << QString::fromUtf8(filterEventKindName(k));
            notes << roles.join(' ');
        }
    }
    matrix_->setEventNames(eventNames);
    matrix_->setTokenNotes(notes);
    matrix_->setDiffersLabel(
        otherExp_ ? tr("filter %1 decides differently").arg(activeFilter_ == 0 ? "B" : "A")
                  : QString());
}

long DepExplorerPanel::showArcCells(const DepSentence& s, const DepInspection& r,
                                    bool filterShown) {
    const int n = s.size();
    long differing = 0;
    std::vector<widgets::ArcCell> cells(static_cast<std::size_t>(n + 1) *
                                        static_cast<std::size_t>(n + 1));
    double lo = 0;
    for (int h = 0; h <= n; ++h)
        for (int m = 1; m <= n; ++m) {
            if (h == m) continue;
            widgets::ArcCell& c =
                cells[static_cast<std::size_t>(h) * static_cast<std::size_t>(n + 1) +
                      static_cast<std::size_t>(m)];
            const double v = r.maxMarginals(h, m);
            if (std::isfinite(v)) {
                c.value = static_cast<float>(v - r.maxMarginals.best);
                lo = std::min(lo, static_cast<double>(c.value));
            }
            c.kept = r.finalMask.keep(h, m);
            c.prunedBy = r.prunedByAt(h, m);
            c.flipped = session_.isFlipped(h, m);
            c.gold = s.hasTree() && s.heads[static_cast<std::size_t>(m)] == h;
            c.predicted = r.heads[static_cast<std::size_t>(m)] == h;
            if (filterShown && c.prunedBy == 0)
                c.event = static_cast<int>(filterExp_->maxEventAt(h, m).kind);
            if (otherExp_ && otherExp_->isFiltered(h, m) != filterExp_->isFiltered(h, m)) {
                c.differs = true;
                ++differing;
            }
        }
    matrix_->setScaleLow(lo < 0 ? lo : -1);
    matrix_->setCells(std::move(cells));
    return differing;
}

QString DepExplorerPanel::statusLine(const DepSentence& s, const DepInspection& r,
                                     long differing) const {
    const int n = s.size();
    QStringList parts;
    if (r.success && s.hasTree()) {
        const AttachmentScore sc = scoreAttachment(s, r.heads);
        parts << tr("UAS %1 (%2 of %3 non-punctuation heads right)")
                     .arg(sc.uas(), 0, 'f', 1)
                     .arg(sc.scoredCorrect)
                     .arg(sc.scoredTokens);
    } else if (!r.success) {
        parts << tr("no tree under the mask");
    }
    QStringList kept;
    for (std::size_t k = 0; k < r.stageNames.size(); ++k)
        kept << tr("%1 → %2")
                    .arg(QString::fromStdString(r.stageNames[k]))
                    .arg(r.stageMasks[k + 1].keptCount());
    parts << tr("arcs %1%2 → final mask %3 (%4%)")
                 .arg(ArcMask::totalArcs(n))
                 .arg(kept.isEmpty() ? QString() : " → " + kept.join(" → "))
                 .arg(r.finalMask.keptCount())
                 .arg(100.0 * r.finalMask.keptFraction(), 0, 'f', 1);
    if (filterExp_) {
        const ArcFilterExplanation& e = *filterExp_;
        if (s.hasTree())
            parts << tr("filter keeps %1/%2 gold arcs (%3%)")
                         .arg(e.goldKept)
                         .arg(e.goldArcs)
                         .arg(e.goldArcs ? 100.0 * static_cast<double>(e.goldKept) /
                                               static_cast<double>(e.goldArcs)
                                         : 100.0,
                              0, 'f', 1);
        parts << tr("filters %1/%2 arcs (%3%)")
                     .arg(e.filtered)
                     .arg(e.totalArcs)
                     .arg(e.totalArcs ? 100.0 * static_cast<double>(e.filtered) /
                                            static_cast<double>(e.totalArcs)
                                      : 0.0,
                          0, 'f', 1);
        if (otherExp_)
            parts << tr("%n arc(s) decided differently by filter %1", nullptr,
                        static_cast<int>(differing))
                         .arg(activeFilter_ == 0 ? "B" : "A");
    }
    if (session_.flipCount() > 0) parts << tr("%n flipped by you", nullptr, session_.flipCount());
    if (r.fallbacks > 0)
        parts << tr("%n fallback(s): the stages left no tree", nullptr, r.fallbacks);
    parts << tr("pushes %1").arg(r.pushes);
    if (r.success) parts << tr("score %1").arg(r.score, 0, 'f', 3);
    parts << QFileInfo(modelPath_).fileName();
    return parts.join(QStringLiteral(" · "));
}

void DepExplorerPanel::refresh() {
    if (!session_.ready()) {
        showNoSentence();
        return;
    }
    if (sentenceBox_->currentIndex() != session_.index())
        sentenceBox_->setCurrentIndex(session_.index());
    const DepAnalysis& a = session_.analysis();
    if (!a.error.empty()) {
        status_->setText(tr("Cannot parse sentence %1: %2")
                             .arg(session_.index() + 1)
                             .arg(QString::fromStdString(a.error)));
        return;
    }
    if (!session_.hasAnalysis()) return; // the first computation is still running
    const DepSentence& s = session_.sentence();
    const DepInspection& r = session_.inspection();
    QStringList words;
    for (const auto& x : s.words)
        words << QString::fromStdString(x);
    const int n = s.size();
    if (matrix_->length() != n || matrix_->words() != words) matrix_->setWords(words);
    matrix_->setMessage({});
    QStringList stageNames;
    for (const auto& x : r.stageNames)
        stageNames << QString::fromStdString(x);
    matrix_->setStageNames(stageNames);
    // the active filter's explanation (event colours, roles, readout) and the other filter's
    // decisions
    const bool filterShown = explainFilters(s, r);
    showFilterEvents(filterShown, n);
    const long differing = showArcCells(s, r, filterShown);
    tree_->setSentence(words, s.hasTree() ? s.heads : std::vector<int>{}, r.heads);
    if (!r.success)
        tree_->setMessage(
            tr("No projective tree under this mask — flip an arc back (or Reset Flips)"));
    status_->setText(statusLine(s, r, differing));
    emit analysisShown();
}

} // namespace prunescope::gui
