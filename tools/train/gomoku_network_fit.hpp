#pragma once
// `train_gomoku_eval network`: fits a Gomoku pattern network to self-play games
// (gomoku_network_fit.cpp).

#include <string>
#include <vector>

namespace bge::train {

int run_gomoku_network_fit(const std::vector<std::string>& arguments);

}  // namespace bge::train
