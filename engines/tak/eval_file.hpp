#pragma once
// The EvalFile option: evaluation weights loaded from a file (train_tak_eval's output) instead of
// the compiled-in ones, reloaded when the option changes. A file that cannot be read is reported
// on stderr and the built-in weights are used.

#include <memory>
#include <string>

#include "engines/tak/evaluation.hpp"
#include "protocol/options.hpp"

namespace bge::tak {

class EvalFile {
public:
    // Reads the option; true when the weights changed since the last call (or on the first).
    bool refresh(const protocol::OptionRegistry& options);
    std::shared_ptr<const EvalWeightSet> weights() const { return weights_; }

private:
    bool loaded_ = false;
    std::string path_;
    std::shared_ptr<const EvalWeightSet> weights_;
};

}  // namespace bge::tak
