#pragma once
// The epoch loop every move-policy trainer runs (Tak's and Gomoku's `policy` subcommands):
// SoftmaxFit's epochs over the chosen moves, the validation loss and top-1 after each, then the
// policy file written whole (a rename replaces it) and the learning curve as CSV, with the
// hand-written ordering's loss in every row for comparison.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/random.hpp"
#include "search/learning/schedule.hpp"
#include "search/learning/softmax_fit.hpp"

namespace bge::train {

// The ordering a policy replaces, scored on the validation positions as a softmax of its hints.
struct HandWrittenOrdering {
    double cross_entropy = 0, top1 = 0;
    long positions = 0;
    // One position: the hints of its candidates (as logits) and the index of the move played.
    void add(std::vector<double> logits, std::size_t chosen) {
        const auto score = search::learning::score_choice(logits, chosen);
        cross_entropy += score.loss;
        top1 += score.top1;
        ++positions;
    }
};

struct PolicyTraining {
    std::string_view program;
    int epochs = 8;
    std::size_t batch = 256;
    search::learning::Schedule schedule;
    double l2 = 1e-5;
    int threads = 2;
    std::string out, curve;
    HandWrittenOrdering hand_written;  // the reference on the same validation positions
    std::vector<double> initial;       // the weights to start from; empty: zeros
    // The policy file's text for fitted weights.
    std::function<std::string(std::vector<float>)> format;
};

// 0 on success, else the trainer's exit status.
int train_policy(std::size_t feature_count, const search::learning::ChoiceDataset& train,
                 const search::learning::ChoiceDataset& validation, const PolicyTraining& settings, Random& random);

}  // namespace bge::train
