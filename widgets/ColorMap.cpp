#include "widgets/ColorMap.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace prunescope::widgets {
namespace {

// Anchors sampled from matplotlib's maps at t = 0, 0.1, ..., 1; linear interpolation between.
constexpr std::array<unsigned, 11> kViridis{0x440154, 0x482475, 0x414487, 0x355f8d,
                                            0x2a788e, 0x21918c, 0x22a884, 0x44bf70,
                                            0x7ad151, 0xbddf26, 0xfde725};
constexpr std::array<unsigned, 11> kCividis{0x00224e, 0x123570, 0x3b496c, 0x575d6d,
                                            0x707173, 0x8a8779, 0xa59c74, 0xc3b369,
                                            0xe1cc55, 0xf5df3c, 0xfee838};
// ColorBrewer RdBu, 11 classes (Brewer, colorbrewer2.org; marked colour-blind safe), reversed so
// that negative values are blue and positive ones red; the middle anchor is its neutral #f7f7f7.
constexpr std::array<unsigned, 11> kRdBuReversed{0x053061, 0x2166ac, 0x4393c3, 0x92c5de,
                                                 0xd1e5f0, 0xf7f7f7, 0xfddbc7, 0xf4a582,
                                                 0xd6604d, 0xb2182b, 0x67001f};

QColor lerp(unsigned a, unsigned b, double f) {
    auto ch = [&](int shift) {
        double x = ((a >> shift) & 0xFF) * (1 - f) + ((b >> shift) & 0xFF) * f;
        return static_cast<int>(std::lround(x));
    };
    return QColor(ch(16), ch(8), ch(0));
}

} // namespace

QColor colorMapAt(ColorMapKind kind, double t) {
    if (std::isnan(t)) return QColor(0xE4, 0xE4, 0xE4);
    const auto& table = kind == ColorMapKind::Cividis     ? kCividis
                        : kind == ColorMapKind::Diverging ? kRdBuReversed
                                                          : kViridis;
    t = std::clamp(t, 0.0, 1.0) * (table.size() - 1);
    auto lo = static_cast<std::size_t>(std::floor(t));
    if (lo >= table.size() - 1) return lerp(table.back(), table.back(), 0);
    return lerp(table[lo], table[lo + 1], t - static_cast<double>(lo));
}

QString colorMapName(ColorMapKind kind) {
    switch (kind) {
    case ColorMapKind::Cividis:
        return "cividis";
    case ColorMapKind::Diverging:
        return "RdBu (diverging)";
    case ColorMapKind::Viridis:
        break;
    }
    return "viridis";
}

bool isDiverging(ColorMapKind kind) {
    return kind == ColorMapKind::Diverging;
}

QColor divergingNeutral() {
    return QColor(0xf7, 0xf7, 0xf7);
}

QStringList colorMapNames() {
    return {"viridis", "cividis"};
}

QColor contrastingText(const QColor& bg) {
    // Relative luminance (sRGB approximation) against a mid threshold.
    double l = 0.2126 * bg.redF() + 0.7152 * bg.greenF() + 0.0722 * bg.blueF();
    return l > 0.45 ? Qt::black : Qt::white;
}

} // namespace prunescope::widgets
