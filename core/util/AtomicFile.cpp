// Atomic file replacement and whole-file reading.
#include "core/util/AtomicFile.h"

#include "core/util/Error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace prunescope {

namespace {
[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
    throw InputError(path, 0, 0, what + ": " + std::strerror(err));
}
} // namespace

void writeFileAtomically(const std::string& path, const std::string& contents) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    fs::path dir = target.parent_path();
    if (dir.empty()) dir = ".";
    std::string tmpl = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) fail(path, "cannot create temporary file", errno);
    const std::string tmp(name.data());
    auto abandon = [&](const std::string& what) {
        const int err = errno;
        ::close(fd);
        ::unlink(tmp.c_str());
        fail(path, what, err);
    };
    const char* p = contents.data();
    size_t left = contents.size();
    while (left > 0) {
        const ssize_t w = ::write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR) continue;
            abandon("cannot write");
        }
        p += w;
        left -= static_cast<size_t>(w);
    }
    if (::fchmod(fd, 0644) != 0) abandon("cannot set permissions");
    if (::fsync(fd) != 0) abandon("cannot sync");
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        fail(path, "cannot close", err);
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        fail(path, "cannot rename temporary file into place", err);
    }
    // Make the rename itself durable (best effort).
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

std::string readFile(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputError(path, 0, 0, "is a directory, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, 0, 0, std::string("cannot open file: ") + std::strerror(errno));
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw InputError(path, 0, 0, "read error");
    return ss.str();
}

} // namespace prunescope
