#pragma once
// `train_tak_eval network`: fits a Tak value network to self-play games (tak_network_fit.cpp).

#include <string>
#include <vector>

namespace bge::train {

int run_network_fit(const std::vector<std::string>& arguments);

}  // namespace bge::train
