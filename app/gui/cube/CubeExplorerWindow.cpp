// The cube-pruning explorer window (CubeExplorerWindow.h).
#include "app/gui/cube/CubeExplorerWindow.h"

#include "app/gui/window/MainWindow.h"
#include "core/dep/DepReader.h"
#include "widgets/CubeChartView.h"
#include "widgets/CubeTreeView.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QToolBar>
#include <QtConcurrent>

namespace prunescope::gui {

namespace {

const CubeUpdateStrategy kStrategies[] = {CubeUpdateStrategy::Standard, CubeUpdateStrategy::Skip,
                                          CubeUpdateStrategy::SMax, CubeUpdateStrategy::PMax};
const char* const kStrategyLabels[] = {"standard", "skip", "s-max", "p-max"};

QStringList wordsOf(const DepSentence& s) {
    QStringList w;
    for (const auto& x : s.words)
        w << QString::fromStdString(x);
    return w;
}

QString partsHtml(const CubeParts& p) {
    QStringList out;
    for (const auto& a : p.arcs)
        out << QStringLiteral("arc %1→%2").arg(a[0]).arg(a[1]);
    for (const auto& s : p.siblings)
        out << QStringLiteral("sib (%1; %2, %3)")
                   .arg(s[0])
                   .arg(s[1] == s[0] ? QStringLiteral("–") : QString::number(s[1]))
                   .arg(s[2]);
    for (const auto& g : p.grandparents)
        out << QStringLiteral("gp %1→%2→%3").arg(g[0]).arg(g[1]).arg(g[2]);
    return out.isEmpty() ? QStringLiteral("<i>nothing</i>") : out.join(QStringLiteral(", "));
}

struct Loaded {
    std::shared_ptr<const CubeModel> model;
    QString error;
};

} // namespace

QString defaultCubeModelPath() {
    return sampleFile("cube/model.json");
}
QString defaultCubeSentencesPath() {
    return sampleFile("cube/sentences.dp");
}

CubeExplorerWindow::CubeExplorerWindow(QWidget* parent, bool openDefault) : QMainWindow(parent) {
    setWindowTitle(tr("Cube Pruning Explorer — PruneScope"));
    buildUi();
    if (openDefault) {
        if (const QString s = defaultCubeSentencesPath(); !s.isEmpty()) openSentences(s);
        if (const QString m = defaultCubeModelPath(); !m.isEmpty()) openModel(m);
    }
    refresh();
}

CubeExplorerWindow::~CubeExplorerWindow() {
    if (watcher_) watcher_->waitForFinished();
}

CubeExplorerWindow* CubeExplorerWindow::showFor(QWidget* parent) {
    auto* w = parent ? parent->findChild<CubeExplorerWindow*>(QString(), Qt::FindDirectChildrenOnly)
                     : nullptr;
    if (!w) {
        w = new CubeExplorerWindow(parent);
        w->setWindowFlag(Qt::Window);
        w->resize(1400, 900);
    }
    w->show();
    w->raise();
    return w;
}

void CubeExplorerWindow::buildUi() {
    auto* tb = addToolBar(tr("Cube"));
    tb->setObjectName("cubeToolBar");
    tb->addAction(tr("Open Model…"), this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Open Cube-Pruning Model"),
                                                       QString(), tr("Cube models (*.json)"));
        if (!p.isEmpty()) openModel(p);
    });
    tb->addAction(tr("Open Sentences…"), this, [this] {
        const QString p = QFileDialog::getOpenFileName(
            this, tr("Open Dependency Treebank"), QString(),
            tr("Dependency treebanks (*.dp *.conll *.conllx *.conllu)"));
        QString err;
        if (!p.isEmpty() && !openSentences(p, &err))
            QMessageBox::warning(this, tr("Cannot open sentences"), err);
    });
    tb->addSeparator();
    tb->addAction(tr("◀"), this, [this] {
          selectSentence(session_.index() - 1);
      })->setToolTip(tr("Previous sentence"));
    sentenceBox_ = new QComboBox;
    sentenceBox_->setMinimumContentsLength(40);
    sentenceBox_->setAccessibleName(tr("Sentence"));
    tb->addWidget(sentenceBox_);
    connect(sentenceBox_, &QComboBox::activated, this, [this](int i) { selectSentence(i); });
    tb->addAction(tr("▶"), this, [this] {
          selectSentence(session_.index() + 1);
      })->setToolTip(tr("Next sentence"));
    tb->addSeparator();
    tb->addWidget(new QLabel(tr(" beam k ")));
    beamBox_ = new QSpinBox;
    beamBox_->setRange(1, 512);
    beamBox_->setValue(session_.beam());
    beamBox_->setAccessibleName(tr("Beam size k"));
    tb->addWidget(beamBox_);
    connect(beamBox_, &QSpinBox::valueChanged, this, [this](int k) { setBeam(k); });
    tb->addWidget(new QLabel(tr("  update ")));
    strategyBox_ = new QComboBox;
    for (const char* l : kStrategyLabels)
        strategyBox_->addItem(QString::fromLatin1(l));
    strategyBox_->setCurrentIndex(3);
    strategyBox_->setAccessibleName(tr("Update strategy"));
    tb->addWidget(strategyBox_);
    connect(strategyBox_, &QComboBox::activated, this,
            [this](int i) { setStrategy(kStrategies[i]); });
    applyButton_ = new QPushButton(tr("Apply update"));
    applyButton_->setToolTip(
        tr("One perceptron step of this strategy on the working weights, then re-parse"));
    tb->addWidget(applyButton_);
    connect(applyButton_, &QPushButton::clicked, this, [this] { applyUpdate(); });
    tb->addAction(tr("Reset weights"), this, [this] { resetWeights(); });

    chart_ = new widgets::CubeChartView;
    tree_ = new widgets::CubeTreeView;
    connect(chart_, &widgets::CubeChartView::cellClicked, this, [this](int id) { selectCell(id); });
    auto* left = new QSplitter(Qt::Vertical);
    left->addWidget(chart_);
    left->addWidget(tree_);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);

    tabs_ = new QTabWidget;
    beamTable_ = new QTableWidget(0, 5);
    beamTable_->setHorizontalHeaderLabels(
        {tr("rank"), tr("score"), tr("local"), tr("gold?"), tr("arcs inside")});
    beamTable_->horizontalHeader()->setStretchLastSection(true);
    beamTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    beamTable_->verticalHeader()->hide();
    tabs_->addTab(beamTable_, tr("Beam of the cell"));
    goldTable_ = new QTableWidget(0, 5);
    goldTable_->setHorizontalHeaderLabels(
        {tr("gold node"), tr("gold rank"), tr("violation"), tr("s-max / p-max"), tr("updated")});
    goldTable_->horizontalHeader()->setStretchLastSection(true);
    goldTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    goldTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    goldTable_->verticalHeader()->hide();
    connect(goldTable_, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (row >= 0 && row < static_cast<int>(session_.gold().nodes.size()))
            selectCell(session_.gold().nodes[static_cast<std::size_t>(row)].cellId);
    });
    tabs_->addTab(goldTable_, tr("Gold nodes"));
    updateView_ = new QTextBrowser;
    tabs_->addTab(updateView_, tr("Update"));

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(tabs_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({960, 540});
    setCentralWidget(split);
    status_ = new QLabel;
    statusBar()->addWidget(status_, 1);
}

void CubeExplorerWindow::setModel(std::shared_ptr<const CubeModel> m, const QString& path) {
    modelPath_ = path;
    session_.setModel(std::move(m));
    beamBox_->blockSignals(true);
    beamBox_->setValue(session_.beam());
    beamBox_->blockSignals(false);
    session_.setStrategy(kStrategies[strategyBox_->currentIndex()]);
    lastStep_.clear();
    refresh();
}

void CubeExplorerWindow::openModel(const QString& path) {
    if (watcher_) return; // one load at a time
    status_->setText(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    watcher_ = new QFutureWatcher<std::shared_ptr<const CubeModel>>(this);
    auto* w = watcher_;
    auto error = std::make_shared<QString>();
    connect(w, &QFutureWatcherBase::finished, this, [this, w, path, error] {
        auto model = w->result();
        watcher_ = nullptr;
        w->deleteLater();
        if (!model) {
            status_->setText(*error);
            auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot open model"), *error,
                                        QMessageBox::Ok, this);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
            emit loaded(false, *error);
            return;
        }
        setModel(std::move(model), path);
        emit loaded(true, path);
    });
    w->setFuture(
        QtConcurrent::run([p = path.toStdString(), error]() -> std::shared_ptr<const CubeModel> {
            try {
                return std::make_shared<const CubeModel>(loadCubeModel(p));
            } catch (const std::exception& e) {
                *error = QString::fromUtf8(e.what());
                return nullptr;
            }
        }));
}

bool CubeExplorerWindow::openModelSync(const QString& path, QString* error) {
    try {
        setModel(std::make_shared<const CubeModel>(loadCubeModel(path.toStdString())), path);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        status_->setText(QString::fromUtf8(e.what()));
        return false;
    }
}

bool CubeExplorerWindow::openSentences(const QString& path, QString* error) {
    try {
        auto s = readDepTreebank(path.toStdString());
        if (s.empty()) throw std::runtime_error("no sentences in " + path.toStdString());
        sentencesPath_ = path;
        session_.setSentences(std::move(s));
        sentenceBox_->clear();
        for (const auto& x : session_.sentences()) {
            QString text;
            for (std::size_t i = 1; i < x.words.size(); ++i)
                text += (i > 1 ? " " : "") + QString::fromStdString(x.words[i]);
            sentenceBox_->addItem(
                QStringLiteral("%1. %2").arg(sentenceBox_->count() + 1).arg(text));
        }
        lastStep_.clear();
        refresh();
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        status_->setText(QString::fromUtf8(e.what()));
        return false;
    }
}

void CubeExplorerWindow::selectSentence(int index) {
    if (session_.sentences().empty()) return;
    session_.select(index);
    lastStep_.clear();
    refresh();
}

void CubeExplorerWindow::setBeam(int k) {
    session_.setBeam(k);
    if (beamBox_->value() != k) {
        beamBox_->blockSignals(true);
        beamBox_->setValue(k);
        beamBox_->blockSignals(false);
    }
    refresh();
}

void CubeExplorerWindow::setStrategy(CubeUpdateStrategy s) {
    session_.setStrategy(s);
    for (int i = 0; i < 4; ++i)
        if (kStrategies[i] == s) strategyBox_->setCurrentIndex(i);
    refresh();
}

bool CubeExplorerWindow::applyUpdate() {
    const auto r = session_.applyUpdate();
    if (!r) {
        lastStep_ = tr("<p><b>No update</b>: %1 does not update on this sentence (%2).</p>")
                        .arg(strategyBox_->currentText(),
                             session_.choice().rootWrong
                                 ? tr("the root is not a violation and nothing below violates")
                                 : tr("the prediction is right"));
        refresh();
        return false;
    }
    QStringList cells;
    for (const auto& c : r->cells)
        cells << QString::fromStdString(cubeCellName(c));
    lastStep_ = tr("<p><b>Applied update %1</b> at %2: violation of these subtree pairs %3 → "
                   "%4.<br>Moved toward %5<br>and away from %6.</p>")
                    .arg(session_.updatesApplied())
                    .arg(cells.join(", "))
                    .arg(r->before, 0, 'f', 3)
                    .arg(r->after, 0, 'f', 3)
                    .arg(partsHtml(r->delta.toward), partsHtml(r->delta.awayFrom));
    refresh();
    return true;
}

void CubeExplorerWindow::resetWeights() {
    session_.resetWeights();
    lastStep_ = tr("<p>Weights reset to the model's.</p>");
    refresh();
}

QString CubeExplorerWindow::itemArcs(int itemId) const {
    std::vector<std::array<int, 2>> arcs;
    session_.chart().arcs(itemId, arcs);
    std::sort(arcs.begin(), arcs.end(), [](const auto& a, const auto& b) { return a[1] < b[1]; });
    QStringList out;
    for (const auto& a : arcs)
        out << QStringLiteral("%1→%2").arg(a[0]).arg(a[1]);
    return out.join(QStringLiteral(" "));
}

void CubeExplorerWindow::selectCell(int cellId) {
    listBeam(cellId);
    tabs_->setCurrentWidget(beamTable_);
}

void CubeExplorerWindow::listBeam(int cellId) {
    chart_->setSelectedCell(cellId);
    beamTable_->setRowCount(0);
    if (!session_.ready() || cellId < 0) return;
    const CubeChart& ch = session_.chart();
    const auto beam = ch.beamOf(cellId);
    const int node = session_.gold().nodeOfCell(cellId);
    const GoldNode* g =
        node >= 0 ? &session_.gold().nodes[static_cast<std::size_t>(node)] : nullptr;
    auto addRow = [&](const QString& rank, int itemId, const QString& gold) {
        const int row = beamTable_->rowCount();
        beamTable_->insertRow(row);
        const CubeItem& it = ch.item(itemId);
        const QString cells[] = {rank, QString::number(static_cast<double>(it.score), 'f', 3),
                                 QString::number(static_cast<double>(it.local), 'f', 3), gold,
                                 itemArcs(itemId)};
        for (int c = 0; c < 5; ++c)
            beamTable_->setItem(row, c, new QTableWidgetItem(cells[c]));
        if (!gold.isEmpty())
            for (int c = 0; c < 5; ++c)
                beamTable_->item(row, c)->setBackground(
                    g && g->rank >= 0 ? QColor(0xcf, 0xee, 0xe2) : QColor(0xf6, 0xd2, 0xbd));
    };
    for (int r = 0; r < static_cast<int>(beam.size()); ++r)
        addRow(QString::number(r + 1), ch.beamItem(cellId, r),
               g && g->rank == r ? tr("gold") : QString());
    if (g && g->fellOff()) addRow(tr("—"), g->goldItem, tr("gold: fell off the beam"));
    beamTable_->resizeColumnsToContents();
    const CubeCell c = ch.cell(cellId);
    tabs_->setTabText(
        0,
        tr("Beam of %1 (%2 items)").arg(QString::fromStdString(cubeCellName(c))).arg(beam.size()));
}

void CubeExplorerWindow::fillGoldTable() {
    goldTable_->setRowCount(0);
    const GoldDerivation& g = session_.gold();
    const CubeUpdateChoice& c = session_.choice();
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const GoldNode& n = g.nodes[i];
        goldTable_->insertRow(static_cast<int>(i));
        const bool onFrontier = std::find(c.frontier.begin(), c.frontier.end(),
                                          static_cast<int>(i)) != c.frontier.end();
        const bool updated =
            std::find(c.nodes.begin(), c.nodes.end(), static_cast<int>(i)) != c.nodes.end();
        QString role;
        if (c.smaxNode == static_cast<int>(i)) role += tr("s-max ");
        if (onFrontier) role += tr("frontier");
        const QString cells[] = {QString::fromStdString(cubeCellName(n.cell)),
                                 n.fellOff() ? tr("fell off") : QString::number(n.rank + 1),
                                 QString::number(n.violation, 'f', 3), role,
                                 updated ? tr("yes") : QString()};
        for (int col = 0; col < 5; ++col)
            goldTable_->setItem(static_cast<int>(i), col, new QTableWidgetItem(cells[col]));
    }
    goldTable_->resizeColumnsToContents();
}

void CubeExplorerWindow::fillUpdateView(const QString& lastStep) {
    QString html = lastStep;
    const CubeUpdateChoice& c = session_.choice();
    const GoldDerivation& g = session_.gold();
    if (!g.reachable()) {
        updateView_->setHtml(
            html + tr("<p>No gold derivation: %1</p>").arg(QString::fromStdString(g.problem)));
        return;
    }
    const GoldNode& root = g.nodes.back();
    html +=
        tr("<p><b>%1 update</b> on this sentence. Root: %2, violation %3%4.</p>")
            .arg(strategyBox_->currentText())
            .arg(root.correct()   ? tr("right")
                 : root.fellOff() ? tr("wrong, gold fell off the beam")
                                  : tr("wrong, gold at rank %1").arg(root.rank + 1))
            .arg(root.violation, 0, 'f', 3)
            .arg(c.rootWrong && !c.rootViolation ? tr(" — <b>not a violation</b> (search lost "
                                                      "gold; a standard update here is invalid)")
                                                 : QString());
    if (!c.update) {
        html += tr("<p>This strategy makes no update here.</p>");
    } else {
        html += tr("<p>Subtree pairs (gold node: Viterbi subtree vs gold subtree):</p><ul>");
        for (int n : c.nodes) {
            const GoldNode& node = g.nodes[static_cast<std::size_t>(n)];
            html += tr("<li>%1: violation %2 (Viterbi %3, gold %4)</li>")
                        .arg(QString::fromStdString(cubeCellName(node.cell)))
                        .arg(node.violation, 0, 'f', 3)
                        .arg(static_cast<double>(session_.chart().item(node.viterbiItem).score), 0,
                             'f', 3)
                        .arg(static_cast<double>(session_.chart().item(node.goldItem).score), 0,
                             'f', 3);
        }
        const CubePartsDelta d = session_.delta();
        html += tr("</ul><p><b>Toward</b> (gold side): %1</p><p><b>Away from</b> (Viterbi side): "
                   "%2</p>")
                    .arg(partsHtml(d.toward), partsHtml(d.awayFrom));
    }
    updateView_->setHtml(html);
}

QString CubeExplorerWindow::statusText() const {
    return status_->text();
}

void CubeExplorerWindow::refresh() {
    applyButton_->setEnabled(session_.ready() && session_.choice().update);
    if (!session_.ready()) {
        chart_->setChart({}, 1, {});
        tree_->setMessage(session_.model() ? tr("Open sentences with gold trees")
                                           : tr("Open a cube-pruning model (cube-train)"));
        status_->setText(isLoading() ? status_->text() : tr("No model or no sentences"));
        return;
    }
    if (sentenceBox_->currentIndex() != session_.index())
        sentenceBox_->setCurrentIndex(session_.index());
    const DepSentence& s = session_.sentence();
    const QStringList words = wordsOf(s);
    const GoldDerivation& g = session_.gold();
    const CubeUpdateChoice& c = session_.choice();
    chart_->setChart(words, session_.beam(), widgets::cubeCellViews(session_.chart(), &g, &c));
    tree_->setSentence(words, s.hasTree() ? s.heads : std::vector<int>{}, session_.parse().heads);
    std::vector<widgets::SpanBracket> brackets;
    if (g.reachable()) {
        auto bracket = [&](int n, widgets::SpanBracket::Kind kind) {
            const GoldNode& node = g.nodes[static_cast<std::size_t>(n)];
            const QString label = QStringLiteral("%1 v=%2")
                                      .arg(QString::fromStdString(cubeCellName(node.cell)))
                                      .arg(node.violation, 0, 'f', 2);
            brackets.push_back({std::min(node.cell.head, node.cell.end),
                                std::max(node.cell.head, node.cell.end), label, kind});
        };
        if (c.smaxNode >= 0) bracket(c.smaxNode, widgets::SpanBracket::SMax);
        for (int f : c.frontier)
            bracket(f, g.nodes[static_cast<std::size_t>(f)].correct()
                           ? widgets::SpanBracket::FrontierAgreeing
                           : widgets::SpanBracket::Frontier);
    }
    tree_->setBrackets(std::move(brackets));
    const CubePartsDelta d = session_.delta();
    tree_->setUpdateArcs(d.toward.arcs, d.awayFrom.arcs);
    fillGoldTable();
    fillUpdateView(lastStep_);
    const int sel = chart_->selectedCell();
    listBeam(sel >= 0 ? sel : session_.chart().rootCell());
    QString st = tr("%1 · beam %2 · ").arg(QFileInfo(modelPath_).fileName()).arg(session_.beam());
    if (s.hasTree())
        st += tr("UAS %1 · ").arg(scoreAttachment(s, session_.parse().heads).uas(), 0, 'f', 1);
    if (g.reachable())
        st += tr("gold fell off at %1 of %2 nodes · root violation %3 · ")
                  .arg(g.fellOffCount())
                  .arg(g.nodes.size())
                  .arg(g.nodes.back().violation, 0, 'f', 3);
    st += tr("pushes %1 · updates applied %2")
              .arg(session_.parse().stats.pushes)
              .arg(session_.updatesApplied());
    status_->setText(st);
}

} // namespace prunescope::gui
