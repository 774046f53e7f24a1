// Rollout results and roll-in policies as bytes (Alg. 2 lines 6-11, footnote 15; RolloutWire.h).
#include "core/lols/RolloutWire.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace prunescope {

namespace {

constexpr char kWireRolloutMagic[4] = {'P', 'S', 'R', 'W'};
constexpr char kWirePolicyMagic[4] = {'P', 'S', 'P', 'W'};
constexpr std::size_t kWireSentenceBytes =
    4 + 4 + 4 + 8 + 8 + 8 + 4; // position, skipped, states, weight, acc, runtime, entries
constexpr std::size_t kWireEntryBytes = 4 + 2 + 2 + 8 + 8;

template <class T> void putWire(std::string& out, const T& x) {
    out.append(reinterpret_cast<const char*>(&x), sizeof x);
}

class WireReader {
  public:
    WireReader(const std::string& bytes, const std::string& source) : b_(bytes), source_(source) {}
    template <class T> T get() {
        need(sizeof(T));
        T x;
        std::memcpy(&x, b_.data() + pos_, sizeof x);
        pos_ += sizeof x;
        return x;
    }
    void need(std::size_t n) const {
        if (b_.size() - pos_ < n) throw std::runtime_error(source_ + ": truncated rollout message");
    }
    bool done() const { return pos_ == b_.size(); }
    std::size_t left() const { return b_.size() - pos_; }
    void expectMagic(const char (&magic)[4]) {
        need(4);
        if (std::memcmp(b_.data() + pos_, magic, 4) != 0)
            throw std::runtime_error(source_ + ": not a rollout message");
        pos_ += 4;
    }

  private:
    const std::string& b_;
    const std::string& source_;
    std::size_t pos_ = 0;
};

} // namespace

std::string encodeSentenceRollouts(std::span<const int> positions,
                                   std::span<const SentenceRollouts> results) {
    if (positions.size() != results.size())
        throw std::invalid_argument("encodeSentenceRollouts: size mismatch");
    std::size_t size = 4 + 4;
    for (const SentenceRollouts& r : results)
        size += kWireSentenceBytes + r.entries.size() * kWireEntryBytes;
    std::string out;
    out.reserve(size);
    out.append(kWireRolloutMagic, 4);
    putWire(out, static_cast<std::uint32_t>(results.size()));
    for (std::size_t x = 0; x < results.size(); ++x) {
        const SentenceRollouts& r = results[x];
        putWire(out, static_cast<std::int32_t>(positions[x]));
        putWire(out, static_cast<std::int32_t>(r.skipped ? 1 : 0));
        putWire(out, static_cast<std::int32_t>(r.states));
        putWire(out, r.weight);
        putWire(out, r.rollInAccuracy);
        putWire(out, r.rollInRuntime);
        putWire(out, static_cast<std::uint32_t>(r.entries.size()));
        for (const RewardEntry& e : r.entries) {
            putWire(out, e.sentence);
            putWire(out, e.i);
            putWire(out, e.k);
            putWire(out, e.rewardPrune);
            putWire(out, e.rewardKeep);
        }
    }
    return out;
}

void decodeSentenceRollouts(const std::string& bytes, std::vector<SentenceRollouts>& out,
                            const std::string& source) {
    WireReader in(bytes, source);
    in.expectMagic(kWireRolloutMagic);
    const std::uint32_t count = in.get<std::uint32_t>();
    for (std::uint32_t x = 0; x < count; ++x) {
        const std::int32_t position = in.get<std::int32_t>();
        if (position < 0 || static_cast<std::size_t>(position) >= out.size())
            throw std::runtime_error(source + ": rollout message names minibatch position " +
                                     std::to_string(position) + " of " +
                                     std::to_string(out.size()));
        SentenceRollouts r;
        r.skipped = in.get<std::int32_t>() != 0;
        r.states = in.get<std::int32_t>();
        r.weight = in.get<double>();
        r.rollInAccuracy = in.get<double>();
        r.rollInRuntime = in.get<double>();
        const std::uint32_t entries = in.get<std::uint32_t>();
        if (in.left() / kWireEntryBytes < entries)
            throw std::runtime_error(source + ": truncated rollout message");
        r.entries.resize(entries);
        for (RewardEntry& e : r.entries) {
            e.sentence = in.get<std::uint32_t>();
            e.i = in.get<std::uint16_t>();
            e.k = in.get<std::uint16_t>();
            e.rewardPrune = in.get<double>();
            e.rewardKeep = in.get<double>();
        }
        out[static_cast<std::size_t>(position)] = std::move(r);
    }
    if (!in.done()) throw std::runtime_error(source + ": trailing bytes after rollout message");
}

std::string encodeRollInPolicy(const Policy& p) {
    std::string out(kWirePolicyMagic, 4);
    putWire(out, p.threshold);
    std::uint32_t nonzero = 0;
    for (Eigen::Index f = 0; f < p.weights.size(); ++f) {
        std::uint32_t bits;
        std::memcpy(&bits, &p.weights[f], 4);
        nonzero += bits != 0;
    }
    putWire(out, nonzero);
    out.reserve(out.size() + 8 * std::size_t{nonzero});
    for (Eigen::Index f = 0; f < p.weights.size(); ++f) {
        std::uint32_t bits;
        std::memcpy(&bits, &p.weights[f], 4);
        if (bits == 0) continue; // +0.0 only: -0.0 is sent, so the weights arrive bit for bit
        putWire(out, static_cast<std::uint32_t>(f));
        putWire(out, p.weights[f]);
    }
    return out;
}

Policy decodeRollInPolicy(const std::string& bytes, const std::string& source) {
    WireReader in(bytes, source);
    in.expectMagic(kWirePolicyMagic);
    Policy p;
    p.threshold = in.get<float>();
    const std::uint32_t nonzero = in.get<std::uint32_t>();
    if (in.left() != 8 * std::size_t{nonzero})
        throw std::runtime_error(source + ": truncated policy message");
    for (std::uint32_t x = 0; x < nonzero; ++x) {
        const std::uint32_t f = in.get<std::uint32_t>();
        if (f >= static_cast<std::uint32_t>(p.weights.size()))
            throw std::runtime_error(source + ": policy message names feature " +
                                     std::to_string(f));
        p.weights[f] = in.get<float>();
    }
    return p;
}

} // namespace prunescope
