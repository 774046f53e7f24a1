#pragma once
// The InputError a call throws, for tests that check the file, line, column and message of an
// error (issue 19: every error names its place). No error: file "", line and column -1.
#include "core/util/Error.h"

#include <functional>
#include <string>
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

// Loads the file at path (with load) after replacing the text of its scalar value at pointer (a
// JSON pointer, e.g. "/order") by replacement, then puts the file back as it was. The error must
// begin "path:line:column: " at that value and contain message. Returns "" if so, else what
// differs.
std::string errorAtReplacedValue(const std::string& path, const std::string& pointer,
                                 const std::string& replacement, const std::string& message,
                                 const std::function<void(const std::string&)>& load);

} // namespace prunescope::testdata
