// Atomic file replacement and whole-file reading.
#include "core/util/AtomicFile.h"

#include "core/util/Error.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace prunescope {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
    throw InputError(path, 0, 0, what + ": " + std::strerror(err));
}

// Follows symbolic links (at most 40, as the kernel does) to the path that will be replaced.
fs::path resolveLinks(const std::string& path) {
    fs::path p(path);
    for (int hops = 0; hops < 40; ++hops) {
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(p, ec))) return p;
        const fs::path to = fs::read_symlink(p, ec);
        if (ec) return p;
        p = to.is_absolute() ? to : p.parent_path() / to;
    }
    throw InputError(path, 0, 0, "too many levels of symbolic links");
}

// A temporary file ".NAME.tmp.XXXXXX" next to target, created with `mode` (before the umask).
int createTemporary(const fs::path& target, std::string& tmp, mode_t mode) {
    static std::atomic<unsigned> counter{0};
    const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    for (int attempt = 0; attempt < 100; ++attempt) {
        const unsigned long long salt =
            static_cast<unsigned long long>(
                std::chrono::steady_clock::now().time_since_epoch().count()) ^
            (static_cast<unsigned long long>(::getpid()) << 20) ^
            (counter.fetch_add(1) * 0x9E3779B97F4A7C15ull);
        char suffix[8];
        static const char kChars[] =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        unsigned long long x = salt;
        for (int i = 0; i < 6; ++i, x /= 62)
            suffix[i] = kChars[x % 62];
        suffix[6] = '\0';
        tmp = (dir / ("." + target.filename().string() + ".tmp." + suffix)).string();
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

bool isTemporaryName(const std::string& name) {
    // ".NAME.tmp.XXXXXX"
    if (name.size() < 13 || name[0] != '.') return false;
    const std::size_t at = name.size() - 11;
    return name.compare(at, 5, ".tmp.") == 0;
}

} // namespace

void writeFileAtomically(const std::string& path, const std::string& contents) {
    const fs::path target = resolveLinks(path);
    struct stat old {};
    const bool exists = ::stat(target.c_str(), &old) == 0;
    if (exists && S_ISDIR(old.st_mode)) throw InputError(path, 0, 0, "is a directory, not a file");
    // Renaming over a device or a pipe would replace it with a regular file.
    if (exists && !S_ISREG(old.st_mode))
        throw InputError(path, 0, 0, "is not a regular file; refusing to replace it");
    std::string tmp;
    const int fd = createTemporary(target, tmp, exists ? (old.st_mode & 07777) : 0666);
    if (fd < 0) fail(path, "cannot create temporary file", errno);
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
        if (w == 0) {
            errno = ENOSPC;
            abandon("cannot write");
        }
        p += w;
        left -= static_cast<size_t>(w);
    }
    // The umask applied at creation; an existing file's exact bits are restored.
    if (exists && ::fchmod(fd, old.st_mode & 07777) != 0) abandon("cannot set permissions");
    if (::fsync(fd) != 0) abandon("cannot sync");
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        fail(path, "cannot close", err);
    }
    if (::rename(tmp.c_str(), target.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        fail(path, "cannot rename temporary file into place", err);
    }
    // Make the rename itself durable (best effort).
    const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

std::string readFile(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) throw InputError(path, 0, 0, "is a directory, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, 0, 0, std::string("cannot open file: ") + std::strerror(errno));
    in.seekg(0, std::ios::end); // fails on a pipe: tellg() is then -1
    // One read into a string of the file's size (a stream copy grows its buffer by doubling and
    // copies it again: three copies of a 57 MB model). What a file not seekable (a pipe) or grown
    // meanwhile has beyond that size is appended.
    std::string text;
    const std::streamoff size = in.tellg();
    if (size > 0) {
        text.resize(static_cast<std::size_t>(size));
        in.seekg(0);
        in.read(text.data(), size);
        text.resize(static_cast<std::size_t>(in.gcount()));
        in.clear(in.rdstate() & std::ios::badbit);
    } else {
        in.clear();
        if (size == 0) in.seekg(0);
    }
    if (in.bad()) throw InputError(path, 0, 0, "read error");
    std::ostringstream rest;
    rest << in.rdbuf();
    if (in.bad()) throw InputError(path, 0, 0, "read error");
    text += rest.str();
    return text;
}

int removeStaleTemporaries(const std::string& dir) {
    std::error_code ec;
    int removed = 0;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (!isTemporaryName(name) || !entry.is_regular_file(ec)) continue;
        if (fs::remove(entry.path(), ec)) ++removed;
    }
    return removed;
}

void refuseToOverwriteInput(const std::string& output, const std::vector<std::string>& inputs) {
    std::error_code ec;
    const fs::path out(output);
    for (const std::string& in : inputs) {
        if (in.empty() || !fs::exists(in, ec)) continue;
        if (fs::is_directory(in, ec)) {
            const fs::path parent = out.parent_path().empty() ? fs::path(".") : out.parent_path();
            if (out.extension() == ".mrg" && fs::exists(parent, ec) &&
                fs::equivalent(parent, in, ec))
                throw InputError(output, 0, 0,
                                 "is inside the input treebank directory " + in +
                                     "; refusing to write there (choose another output)");
            continue;
        }
        if (fs::exists(out, ec) && fs::equivalent(out, in, ec))
            throw InputError(output, 0, 0,
                             "is also an input (" + in + "); refusing to overwrite it");
    }
}

} // namespace prunescope
