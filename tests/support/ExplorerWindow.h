// The GUI suites' shared set-up: a shown main window with the bundled sample, and a dev sentence of
// a given length opened in it (the issue-18 checks use a 40-word sentence of ptb-sample/dev).
#pragma once
#include "app/gui/window/DocumentLoader.h"
#include "app/gui/window/MainWindow.h"
#include "support/TestData.h"

#include <QCoreApplication>
#include <QString>
#include <QTest>

#include <memory>

namespace prunescope::testgui {

// A main window (no settings, no session restore) of the given size, shown, exposed (and active
// when `active`), with the bundled sample loaded; null and `error` set when any step fails.
inline std::unique_ptr<gui::MainWindow> shownMainWindow(int width, int height, bool active,
                                                        QString& error) {
    auto w = std::make_unique<gui::MainWindow>(gui::MainWindowOptions{false, false});
    w->resize(width, height);
    w->show();
    if (active) w->activateWindow();
    if (active ? !QTest::qWaitForWindowActive(w.get()) : !QTest::qWaitForWindowExposed(w.get()))
        return error = "the main window was not shown", nullptr;
    if (!w->loadSampleSync()) return error = "the bundled sample did not load", nullptr;
    return w;
}

// Opens ptb-sample/dev in `w` and selects its first sentence of exactly `words` words; an error
// message, or empty on success.
inline QString openDevSentence(gui::MainWindow& w, int words) {
    const QString dev = QString::fromStdString(testdata::ptbDir("dev"));
    const gui::LoadResult tb = gui::loadFile(dev);
    if (!tb.ok()) return "cannot read " + dev;
    int index = -1;
    for (std::size_t s = 0; s < tb.sentences.size() && index < 0; ++s)
        if (static_cast<int>(tb.sentences[s].words.size()) == words) index = static_cast<int>(s);
    if (index < 0) return QString("no %1-word sentence in ptb-sample/dev").arg(words);
    if (!w.openFileSync(dev)) return "the main window did not open " + dev;
    w.selectSentence(index);
    QCoreApplication::processEvents();
    return {};
}

} // namespace prunescope::testgui
