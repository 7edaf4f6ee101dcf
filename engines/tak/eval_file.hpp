#pragma once
// The EvalFile option: evaluation weights loaded from a file (train_tak_eval's output) instead of
// the compiled-in ones, reloaded when the option changes. A file that cannot be read is reported
// on stderr and the built-in weights are used.
//
// The UseNnue and NnueFile options likewise: which value networks the evaluation uses; and
// UsePolicy and PolicyFile: which move policy orders the moves.

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

class NetworkOption {
public:
    // Reads UseNnue and NnueFile; true when the networks changed since the last call (or on the
    // first). A file that cannot be used is reported on stderr and the built-in networks are used.
    bool refresh(const protocol::OptionRegistry& options);
    // nullptr when UseNnue is off.
    std::shared_ptr<const network::NetworkSet> networks() const { return networks_; }
    // nullptr when UsePolicy is off.
    std::shared_ptr<const policy::Policy> move_policy() const { return policy_; }

private:
    bool loaded_ = false;
    bool enabled_ = false, policy_enabled_ = false;
    std::string path_, policy_path_;
    std::shared_ptr<const network::NetworkSet> networks_;
    std::shared_ptr<const policy::Policy> policy_;
};

}  // namespace bge::tak
