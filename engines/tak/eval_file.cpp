#include "engines/tak/eval_file.hpp"

#include <fmt/format.h>

#include "protocol/output.hpp"

namespace bge::tak {

bool EvalFile::refresh(const protocol::OptionRegistry& options) {
    const std::string& path = options.text("EvalFile");
    if (loaded_ && path == path_) return false;
    loaded_ = true;
    path_ = path;
    weights_ = std::make_shared<EvalWeightSet>(builtin_eval_weights());
    if (!path.empty()) {
        if (auto loaded = load_eval_weights(path))
            weights_ = std::make_shared<EvalWeightSet>(*loaded);
        else
            protocol::Output::log(fmt::format("tak: EvalFile: {}; using the built-in weights", loaded.error()));
    }
    return true;
}

bool NetworkOption::refresh(const protocol::OptionRegistry& options) {
    const bool enabled = options.boolean("UseNnue"), policy_enabled = options.boolean("UsePolicy");
    const std::string& path = options.text("NnueFile");
    const std::string& policy_path = options.text("PolicyFile");
    if (loaded_ && enabled == enabled_ && path == path_ && policy_enabled == policy_enabled_ &&
        policy_path == policy_path_)
        return false;
    loaded_ = true;
    enabled_ = enabled;
    path_ = path;
    policy_enabled_ = policy_enabled;
    policy_path_ = policy_path;
    networks_ = nullptr;
    if (enabled) {
        networks_ = network::NetworkSet::builtin();
        if (!path.empty()) {
            auto nets = std::make_shared<network::NetworkSet>(*networks_);
            if (auto added = nets->add_file(path))
                networks_ = std::move(nets);
            else
                protocol::Output::log(fmt::format("tak: NnueFile: {}; using the built-in networks", added.error()));
        }
    }
    policy_ = nullptr;
    if (policy_enabled) {
        policy_ = policy::Policy::builtin();
        if (!policy_path.empty()) {
            if (auto loaded = policy::Policy::load(policy_path))
                policy_ = std::make_shared<policy::Policy>(std::move(*loaded));
            else
                protocol::Output::log(fmt::format("tak: PolicyFile: {}; using the built-in policy", loaded.error()));
        }
    }
    return true;
}

}  // namespace bge::tak
