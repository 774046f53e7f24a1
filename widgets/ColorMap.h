#pragma once
// Perceptually uniform colour maps that stay readable with colour-vision deficiencies
// (sequential: viridis, cividis; diverging: ColorBrewer's RdBu, blue below 0, red above), and the
// Okabe-Ito palette used for change kinds.
#include <QColor>
#include <QString>
#include <QStringList>

namespace prunescope::widgets {

// The sequential maps come first (colorMapNames() lists them, in enum order); the diverging map is
// kept apart for signed quantities on a scale symmetric around 0 (the regret overlay).
enum class ColorMapKind { Viridis, Cividis, Diverging };

// t in [0,1] (clamped). NaN gives a neutral light grey ("no value"). For Diverging, t = 0.5 (the
// value 0 of a symmetric scale) is exactly divergingNeutral(), t < 0.5 blue, t > 0.5 red.
QColor colorMapAt(ColorMapKind kind, double t);
QString colorMapName(ColorMapKind kind);
QStringList colorMapNames(); // the sequential maps, in enum order (what a user picks from)
bool isDiverging(ColorMapKind kind);
QColor divergingNeutral();
// Black or white, whichever reads better on `background`.
QColor contrastingText(const QColor& background);

// Okabe-Ito colours (Wong 2011, Nature Methods 8:441), distinct for all common colour-vision types.
namespace okabeito {
inline const QColor kOrange{0xE6, 0x9F, 0x00};
inline const QColor kSkyBlue{0x56, 0xB4, 0xE9};
inline const QColor kBluishGreen{0x00, 0x9E, 0x73};
inline const QColor kYellow{0xF0, 0xE4, 0x42};
inline const QColor kBlue{0x00, 0x72, 0xB2};
inline const QColor kVermillion{0xD5, 0x5E, 0x00};
inline const QColor kReddishPurple{0xCC, 0x79, 0xA7};
} // namespace okabeito

} // namespace prunescope::widgets
