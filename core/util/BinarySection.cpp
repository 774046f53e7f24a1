// Binary weight blocks after a JSON header (BinarySection.h).
#include "core/util/BinarySection.h"

#include "core/util/ContentHash.h"
#include "core/util/JsonDocument.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace prunescope {

using nlohmann::json;

namespace {

constexpr const char* kSparse = "sparse-f32le";
constexpr const char* kDense = "dense-f32le";

std::uint32_t toLittle(std::uint32_t x) {
    if constexpr (std::endian::native == std::endian::big) return __builtin_bswap32(x);
    return x;
}

void putWord(std::string& out, std::uint32_t x) {
    x = toLittle(x);
    char b[4];
    std::memcpy(b, &x, 4);
    out.append(b, 4);
}

std::uint32_t getWord(const char* p) {
    std::uint32_t x;
    std::memcpy(&x, p, 4);
    return toLittle(x);
}

bool keepsEntry(float f) {
    return std::bit_cast<std::uint32_t>(f) != 0;
} // -0.0 is kept

} // namespace

json BinarySectionWriter::add(std::span<const float> w) {
    std::size_t stored = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (!std::isfinite(w[i]))
            throw std::invalid_argument("weights: entry " + std::to_string(i) + " is not finite");
        stored += keepsEntry(w[i]);
    }
    if (w.size() > UINT32_MAX) throw std::invalid_argument("weights: more than 2^32 entries");
    const std::size_t offset = bytes_.size();
    const bool sparse = 2 * stored < w.size();
    if (sparse) {
        bytes_.reserve(offset + 8 * stored);
        for (std::size_t i = 0; i < w.size(); ++i)
            if (keepsEntry(w[i])) putWord(bytes_, static_cast<std::uint32_t>(i));
        for (const float f : w)
            if (keepsEntry(f)) putWord(bytes_, std::bit_cast<std::uint32_t>(f));
    } else {
        bytes_.reserve(offset + 4 * w.size());
        for (const float f : w)
            putWord(bytes_, std::bit_cast<std::uint32_t>(f));
    }
    return {{"encoding", sparse ? kSparse : kDense},
            {"offset", offset},
            {"count", sparse ? stored : w.size()}};
}

std::string BinarySectionWriter::file(json header) const {
    header[kBinarySectionKey] = {{"bytes", bytes_.size()}, {"checksum", contentHash(bytes_)}};
    std::string out = header.dump() + "\n";
    out += '\0';
    out += bytes_;
    return out;
}

std::string modelFileText(json header, const BinarySectionWriter* bin) {
    return bin ? bin->file(std::move(header)) : header.dump() + "\n";
}

bool isBinaryBlock(const json& weights) {
    return weights.is_object() && weights.contains("encoding");
}

void checkBinarySection(const JsonDocument& doc, bool sectionPresent) {
    const json& root = doc.root();
    const json* h = root.is_object() ? doc.optionalMember(root, kBinarySectionKey) : nullptr;
    if (!h) {
        if (sectionPresent)
            doc.fail(root, "binary data after the JSON header, but the header has no '" +
                               std::string(kBinarySectionKey) + "'");
        return;
    }
    const json& b = doc.member(*h, "bytes");
    const json& c = doc.member(*h, "checksum");
    const std::uint64_t bytes = doc.uint64(b);
    const std::string checksum = doc.string(c);
    if (!sectionPresent)
        doc.fail(b, "the header announces a binary section of " + std::to_string(bytes) +
                        " bytes but the file ends after the JSON (truncated?)");
    if (doc.binary().size() != bytes)
        doc.fail(b, "the binary section has " + std::to_string(doc.binary().size()) +
                        " bytes, the header says " + std::to_string(bytes) +
                        (doc.binary().size() < bytes ? " (file truncated?)" : ""));
    if (contentHash(doc.binary()) != checksum)
        doc.fail(c, "the binary section's checksum does not match the header (file damaged)");
}

void readWeightBlock(const JsonDocument& doc, const json& d, std::span<float> out,
                     const std::string& prefix) {
    const auto& enc = doc.member(d, "encoding");
    const std::string encoding = doc.string(enc);
    if (encoding != kSparse && encoding != kDense)
        doc.fail(enc, prefix + "unknown encoding \"" + encoding + "\" (this build reads \"" +
                          kSparse + "\" and \"" + kDense + "\")");
    const std::string_view bin = doc.binary();
    const json& at = doc.member(d, "offset");
    const json& n = doc.member(d, "count");
    const std::uint64_t offset = doc.uint64(at);
    const std::uint64_t count = doc.uint64(n);
    const bool sparse = encoding == kSparse;
    if (!sparse && count != out.size())
        doc.fail(n, prefix + "a dense block holds every entry: count must be " +
                        std::to_string(out.size()) + ", not " + std::to_string(count));
    if (sparse && count > out.size())
        doc.fail(n, prefix + "count " + std::to_string(count) + " exceeds the " +
                        std::to_string(out.size()) + " entries");
    const std::uint64_t bytes = (sparse ? 8 : 4) * count;
    if (offset > bin.size() || bytes > bin.size() - offset)
        doc.fail(at, prefix + "the block (bytes " + std::to_string(offset) + " to " +
                         std::to_string(offset + bytes) + ") lies outside the " +
                         std::to_string(bin.size()) + "-byte binary section");
    const char* p = bin.data() + offset;
    const char* values = sparse ? p + 4 * count : p;
    // Names the entry and the byte (of the binary section) where its index or value starts.
    const auto failAt = [&](std::uint64_t e, const char* at, const std::string& what) {
        doc.fail(d, prefix + what + " (entry " + std::to_string(e) + ", byte " +
                        std::to_string(offset + (at - p) + 4 * e) + " of the binary section)");
    };
    long previous = -1;
    for (std::uint64_t e = 0; e < count; ++e) {
        const std::uint32_t index = sparse ? getWord(p + 4 * e) : static_cast<std::uint32_t>(e);
        if (sparse && index >= out.size())
            failAt(e, p, "index " + std::to_string(index) + " is out of range");
        if (sparse && static_cast<long>(index) <= previous)
            failAt(e, p, "index " + std::to_string(index) + " is not ascending");
        previous = index;
        const float f = std::bit_cast<float>(getWord(values + 4 * e));
        if (!std::isfinite(f)) failAt(e, values, "a weight is not finite");
        out[index] = f;
    }
}

} // namespace prunescope
