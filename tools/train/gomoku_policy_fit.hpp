#pragma once
// `train_gomoku_eval policy`: fits the Gomoku move policy to self-play games
// (gomoku_policy_fit.cpp).

#include <string>
#include <vector>

namespace bge::train {

int run_gomoku_policy_fit(const std::vector<std::string>& arguments);

}  // namespace bge::train
