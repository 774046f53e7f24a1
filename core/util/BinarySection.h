#pragma once
// Large weight vectors as binary blocks after a model file's JSON header (issue 45;
// docs/file-formats.md "Binary weight blocks"). The file is the JSON text, a newline, one NUL byte
// (which JSON text never contains), then the binary section: blocks of little-endian values. The
// header's "binarySection" gives the section's length and checksum (ContentHash); each weights
// object names its block: {"encoding", "offset", "count"}.
//   "sparse-f32le": count uint32 indices, strictly ascending, then count float32 values;
//   "dense-f32le":  every entry as a float32 (count = the vector's length).
// Writers store whichever is smaller; -0.0 is kept, so a round trip is bit for bit.
#include <nlohmann/json.hpp>

#include <span>
#include <string>

namespace prunescope {

class JsonDocument;

// How a model or policy writer stores its weights: binary blocks (the default) or JSON arrays.
enum class WeightsForm { Binary, Json };

inline constexpr const char* kBinarySectionKey = "binarySection";

// Collects the blocks of one file.
class BinarySectionWriter {
  public:
    // Appends w and returns its descriptor {"encoding", "offset", "count"}. Throws
    // std::invalid_argument if an entry is not finite.
    nlohmann::json add(std::span<const float> w);
    // header (with "binarySection" added), a newline, NUL and the blocks.
    std::string file(nlohmann::json header) const;

  private:
    std::string bytes_;
};

// A whole file: header.dump() + "\n" when bin is null (the JSON form), else bin->file(header).
std::string modelFileText(nlohmann::json header, const BinarySectionWriter* bin);

// Called by JsonDocument (Binary::Allowed) once the header is parsed: a section needs a header
// "binarySection": {"bytes", "checksum"} that matches it, and a header announcing one needs the
// section. Fails at the header's line:column ("file truncated", "checksum mismatch", ...).
void checkBinarySection(const JsonDocument& doc, bool sectionPresent);

// Whether a weights object is a block descriptor (has "encoding") rather than JSON arrays.
bool isBinaryBlock(const nlohmann::json& weights);

// Fills out (zeros on entry; its size is the vector's length) from the block `descriptor`, a value
// of doc (opened with JsonDocument::Binary::Allowed). Every problem fails after `prefix` at the
// line:column of what is wrong: the encoding (unknown), the offset (a block outside the section),
// the count (does not fit), or the descriptor for an entry (index not ascending or out of range,
// value not finite), naming the entry and its byte in the section.
void readWeightBlock(const JsonDocument& doc, const nlohmann::json& descriptor,
                     std::span<float> out, const std::string& prefix = "");

} // namespace prunescope
