#pragma once
// `train_tak_eval policy`: fits the Tak move policy to self-play games (tak_policy_fit.cpp).

#include <string>
#include <vector>

namespace bge::train {

int run_policy_fit(const std::vector<std::string>& arguments);

}  // namespace bge::train
