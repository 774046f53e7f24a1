#pragma once
// The InputError a call throws, for tests that check the file, line, column and message of an
// error (issue 19: every error names its place). No error: file "", line and column -1.
#include "core/util/Error.h"

#include <utility>

namespace prunescope::testdata {

template <class F> InputError inputErrorOf(F&& f) {
    try {
        std::forward<F>(f)();
    } catch (const InputError& e) {
        return e;
    }
    return InputError("", -1, -1, "no error");
}

} // namespace prunescope::testdata
