// Pruning stages + final exact parse.
#include "core/dep/DepPipeline.h"

#include "core/util/Clock.h"

#include <memory>

namespace prunescope {

std::vector<ArcMask> DepPipeline::masks(const DepSentence& s, long* pushes) const {
    DepSentenceFeatures f(s);
    return masks(s, f, pushes);
}

std::vector<ArcMask> DepPipeline::masks(const DepSentence& s, DepSentenceFeatures& f,
                                        long* pushes) const {
    std::vector<ArcMask> out{ArcMask::allKeep(s.size())};
    for (const auto& st : stages_) {
        StageResult r = st.prune(s, out.back(), f);
        r.mask.intersect(out.back());
        if (pushes) *pushes += r.pushes;
        out.push_back(std::move(r.mask));
    }
    return out;
}

DepSentenceResult DepPipeline::parse(const DepSentence& s, EisnerParser& parser) const {
    const double t0 = threadCpuSeconds();
    DepSentenceResult r;
    DepSentenceFeatures f(s);
    const std::vector<ArcMask> ms = masks(s, f, &r.pushes);
    std::size_t firstExact = ms.size() - 1;
    for (std::size_t k = 0; k < stages_.size(); ++k)
        if (stages_[k].exact) {
            firstExact = k;
            break;
        }
    r.arcsAtFirstExact = ms[firstExact].keptCount();
    r.arcsFinal = ms.back().keptCount();
    DepParse p;
    for (std::size_t k = ms.size(); k-- > 0;) {
        p = parseWithModel(*model_, f, k == 0 ? nullptr : &ms[k], parser);
        r.pushes += p.stats.pushes;
        if (p.stats.success) break;
        ++r.fallbacks;
    }
    r.heads = std::move(p.heads);
    r.success = p.stats.success;
    r.cpuSeconds = threadCpuSeconds() - t0;
    return r;
}

DepDecoder DepPipeline::decoder(const std::atomic<bool>* cancel) const {
    auto parser = std::make_shared<EisnerParser>(model_->eisnerOptions());
    parser->setCancelFlag(cancel);
    return [this, parser](const DepSentence& s) { return parse(s, *parser); };
}

} // namespace prunescope
