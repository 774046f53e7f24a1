// The data-folder environment variable (DataDir.h).
#include "core/util/DataDir.h"

#include <atomic>
#include <cstdlib>
#include <iostream>

namespace prunescope {

std::string dataDirFromEnvironment(std::ostream* warnings) {
    if (const char* v = std::getenv(kDataDirVariable); v && *v) return v;
    if (const char* old = std::getenv(kDeprecatedDataDirVariable); old && *old) {
        static std::atomic<bool> warned{false};
        if (warnings) {
            *warnings << "warning: " << kDeprecatedDataDirVariable << " is deprecated; set "
                      << kDataDirVariable << " instead\n";
        } else if (!warned.exchange(true)) {
            std::cerr << "warning: " << kDeprecatedDataDirVariable << " is deprecated; set "
                      << kDataDirVariable << " instead\n";
        }
        return old;
    }
    return {};
}

} // namespace prunescope
