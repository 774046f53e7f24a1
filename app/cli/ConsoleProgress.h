#pragma once
// The CLI's face of core/util/Progress: one self-overwriting line on stderr
// ("training  epoch 3/10  1200/2934  41%"), at most ~5 updates per second, nothing when quiet.
#include "core/util/Progress.h"

namespace prunescope::cli {

// A Progress that prints to stderr (unless quiet) and finishes each phase's line with a newline.
Progress consoleProgress(bool quiet = false);

} // namespace prunescope::cli
