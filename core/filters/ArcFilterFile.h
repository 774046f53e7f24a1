#pragma once
// The arc filter's file (Cherry & Bergsma 2011's w-bar plus the operating point): versioned JSON
// "prunescope-arc-filter" version 1, schema in docs/file-formats.md "Arc filter". Loading
// validates every field and names file:line:column of a bad value; saving is atomic.
#include "core/filters/ArcFilter.h"
#include "core/util/BinarySection.h"

#include <string>

namespace prunescope {

inline constexpr const char* kArcFilterFormat = "prunescope-arc-filter";
constexpr int kArcFilterFormatVersion = 1;

// The header, with the weights inline (JSON arrays) or, given bin, as a binary block.
nlohmann::json arcFilterToJson(const ArcFilter& f, BinarySectionWriter* bin = nullptr);
// Parses and validates the text of a filter file; throws InputError(file, line, column, ...).
ArcFilter arcFilterFromText(std::string text, const std::string& file = "<filter>");
// Atomic; binary weight blocks unless form is WeightsForm::Json (util/BinarySection.h).
void saveArcFilter(const ArcFilter& f, const std::string& path,
                   WeightsForm form = WeightsForm::Binary);
ArcFilter loadArcFilter(const std::string& path); // InputError on any problem

} // namespace prunescope
