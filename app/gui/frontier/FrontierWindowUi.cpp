// The frontier window's widgets, docks and menus (FrontierWindow::buildUi and its steps).
#include "app/gui/frontier/FrontierWindow.h"

#include "app/gui/frontier/TrainingPanel.h"
#include "app/gui/frontier/TrainingQueue.h"
#include "widgets/FrontierPlot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace prunescope::gui {

void FrontierWindow::buildUi() {
    plot_ = new widgets::FrontierPlot(this);
    setCentralWidget(plot_);

    auto* side = new QWidget(this);
    auto* sideLay = new QVBoxLayout(side);
    sideLay->addWidget(buildAxesGroup(side));

    QPushButton *regretBtn = nullptr, *trainBtn = nullptr;
    sideLay->addWidget(buildSelectionGroup(side, regretBtn, trainBtn));
    sideLay->addStretch(1);
    buildDocks(side);
    buildMenus();
    connectControls(regretBtn, trainBtn);
}

// "Axes": the evaluation set, the runtime and accuracy measures and what the plot draws.
QGroupBox* FrontierWindow::buildAxesGroup(QWidget* side) {
    auto* axes = new QGroupBox("Axes", side);
    auto* form = new QFormLayout(axes);
    runtimeBox_ = new QComboBox(axes);
    runtimeBox_->addItem("mega-pushes (mpush)", int(RuntimeMeasure::Mpush));
    runtimeBox_->addItem("constituents built", int(RuntimeMeasure::Constituents));
    runtimeBox_->addItem("spans kept", int(RuntimeMeasure::SpansKept));
    accuracyBox_ = new QComboBox(axes);
    accuracyBox_->addItem("F1 (EVALB)", int(AccuracyMeasure::F1));
    accuracyBox_->addItem("expected recall (rDP runs)", int(AccuracyMeasure::ExpectedRecall));
    logBox_ = new QCheckBox("log runtime axis", axes);
    logBox_->setChecked(true);
    arrowsBox_ = new QCheckBox(QString::fromUtf8("\u03bb arrows"), axes);
    arrowsBox_->setChecked(true);
    conesBox_ = new QCheckBox(QString::fromUtf8("optimal-\u03bb cones"), axes);
    conesBox_->setChecked(true);
    unprunedBox_ = new QCheckBox("unpruned parser", axes);
    logBox_->setObjectName("logX");
    arrowsBox_->setObjectName("arrows");
    conesBox_->setObjectName("cones");
    unprunedBox_->setObjectName("unpruned");
    evalSetBox_ = new QComboBox(axes);
    evalSetBox_->setObjectName("evaluationSet");
    evalSetBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    evalSetBox_->setToolTip(
        "Policies are compared only on the data they were evaluated on: treebank, length "
        "limit and sentence count. Choose which set's policies to show.");
    form->addRow(new QLabel("Evaluated on (only one set is compared):", axes));
    form->addRow(evalSetBox_);
    form->addRow("Runtime", runtimeBox_);
    form->addRow("Accuracy", accuracyBox_);
    form->addRow(logBox_);
    form->addRow(arrowsBox_);
    form->addRow(conesBox_);
    form->addRow(unprunedBox_);
    return axes;
}

// "Best policy for λ": the slider, the selected point's readout and what to do with it.
QGroupBox* FrontierWindow::buildSelectionGroup(QWidget* side, QPushButton*& regretBtn,
                                               QPushButton*& trainBtn) {
    auto* sel = new QGroupBox(QString::fromUtf8("Best policy for \u03bb"), side);
    auto* selLay = new QVBoxLayout(sel);
    slider_ = new widgets::LambdaSlider(sel);
    info_ = new QLabel(sel);
    info_->setWordWrap(true);
    info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    info_->setMinimumWidth(330);
    loadBtn_ = new QPushButton("Load into explorer", sel);
    exportBtn_ = new QPushButton("Export policy…", sel);
    retrainBtn_ = new QPushButton("Retrain this point…", sel);
    retrainBtn_->setObjectName("retrainPoint");
    regretBtn = new QPushButton("Regret view…", sel);
    trainBtn = new QPushButton("Train with LOLS…", sel);
    selLay->addWidget(slider_);
    selLay->addWidget(info_);
    selLay->addWidget(loadBtn_);
    selLay->addWidget(exportBtn_);
    selLay->addWidget(retrainBtn_);
    selLay->addWidget(buildRetrainProgress(sel));
    selLay->addWidget(regretBtn);
    selLay->addWidget(trainBtn);
    return sel;
}

// The side panel as the "Frontier" dock and the LOLS runs as the "LOLS runs" dock.
void FrontierWindow::buildDocks(QWidget* side) {
    auto* sideDock = new QDockWidget("Frontier", this);
    sideDock->setObjectName("frontierControls");
    sideDock->setWidget(side);
    sideDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::RightDockWidgetArea, sideDock);

    panel_ = new TrainingPanel(queue_, this);
    auto* trainDock = new QDockWidget("LOLS runs", this);
    trainDock->setObjectName("lolsRuns");
    trainDock->setWidget(panel_);
    addDockWidget(Qt::BottomDockWidgetArea, trainDock);
}

void FrontierWindow::buildMenus() {
    auto* file = menuBar()->addMenu("&File");
    file->addAction("Open &frontier…", this, [this] { openDialog(false); });
    file->addAction("Open LOLS &run directory…", this, [this] { openDialog(true); });
    recentRunsMenu_ = file->addMenu("Recent LOLS R&uns");
    recentRunsMenu_->setObjectName("recentRunsMenu");
    connect(recentRunsMenu_, &QMenu::aboutToShow, this, &FrontierWindow::fillRecentRuns);
    fillRecentRuns();
    file->addSeparator();
    auto* exportAct =
        file->addAction("&Export selected policy…", this, &FrontierWindow::chooseExport);
    exportAct->setShortcut(QKeySequence("Ctrl+E"));
    file->addAction("Save &plot (PNG/PDF)…", this, &FrontierWindow::chooseSavePlot);
    file->addSeparator();
    file->addAction("&Close", QKeySequence::Close, this, &QWidget::close);
    auto* train = menuBar()->addMenu("&Training");
    train->addAction("Train with &LOLS…", this, &FrontierWindow::launchDialog);
    train->addAction("&Regret view…", this, &FrontierWindow::openRegret);
    train->addAction("&Cancel all runs", queue_, &TrainingQueue::cancelAll);
}

void FrontierWindow::connectControls(QPushButton* regretBtn, QPushButton* trainBtn) {
    connect(runtimeBox_, &QComboBox::currentIndexChanged, this, [this] {
        setMeasures(static_cast<RuntimeMeasure>(runtimeBox_->currentData().toInt()), accuracy_);
    });
    connect(accuracyBox_, &QComboBox::currentIndexChanged, this, [this] {
        setMeasures(runtime_, static_cast<AccuracyMeasure>(accuracyBox_->currentData().toInt()));
    });
    connect(evalSetBox_, &QComboBox::activated, this,
            [this] { setEvaluationSet(evalSetBox_->currentData().toString().toStdString()); });
    connect(logBox_, &QCheckBox::toggled, plot_, &widgets::FrontierPlot::setLogX);
    auto glyphs = [this] {
        plot_->setShowLambdaGlyphs(arrowsBox_->isChecked(), conesBox_->isChecked());
    };
    connect(arrowsBox_, &QCheckBox::toggled, this, glyphs);
    connect(conesBox_, &QCheckBox::toggled, this, glyphs);
    connect(unprunedBox_, &QCheckBox::toggled, this, &FrontierWindow::refreshView);
    connect(slider_, &widgets::LambdaSlider::lambdaChanged, this,
            &FrontierWindow::refreshSelection);
    connect(plot_, &widgets::FrontierPlot::lambdaDragged, this, &FrontierWindow::setLambda);
    connect(plot_, &widgets::FrontierPlot::pointClicked, this, &FrontierWindow::selectPoint);
    connect(loadBtn_, &QPushButton::clicked, this, &FrontierWindow::loadSelectedIntoExplorer);
    connect(exportBtn_, &QPushButton::clicked, this, &FrontierWindow::chooseExport);
    connect(retrainBtn_, &QPushButton::clicked, this, &FrontierWindow::retrainSelected);
    connect(regretBtn, &QPushButton::clicked, this, &FrontierWindow::openRegret);
    connect(trainBtn, &QPushButton::clicked, this, &FrontierWindow::launchDialog);
}

} // namespace prunescope::gui
