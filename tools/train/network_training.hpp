#pragma once
// The epoch loop every value-network trainer runs (Tak's and Gomoku's `network` subcommands):
// NetworkFit's Adam steps over shuffled mini-batches, the validation loss after each epoch, and
// the network of the best validation loss so far written at once (a rename replaces the file
// whole, so a stopped run loses nothing), with the learning curve as CSV.

#include <boost/program_options.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"

#include "search/learning/network_fit.hpp"
#include "search/learning/nnue.hpp"
#include "search/learning/schedule.hpp"

namespace bge::train {

struct NetworkTraining {
    std::string_view program;  // for messages
    int epochs = 10;
    std::size_t batch = 1024;
    search::learning::Schedule schedule;
    int threads = 2;
    // The batch's gradient is summed over this many shards in a fixed order, whatever the
    // thread count, so the weights depend on the seed and the shards only.
    int shards = 4;
    std::uint64_t seed = 1;
    std::string out;    // the network file
    std::string curve;  // the learning curve (CSV), or none
    // A loss to compare with, printed in every row of the curve (the engine's linear evaluation
    // on the same validation positions), under this column name.
    std::string reference_column;
    double reference_loss = 0;
};

// The command line every `network` subcommand shares; a game's trainer derives its options from
// it and adds its own (the board size, symmetries).
struct NetworkCommand {
    std::vector<std::string> game_files;
    std::string init, out, curve, description;
    int hidden = 32;
    int epochs = 10;
    std::size_t batch = 1024;
    std::string learning_rate = "cosine:0.002:0.0001";
    double score_weight = 0.5;
    int validation_every = 10;
    int threads = 2;
    int shards = 4;  // 4: what --threads 2 used before the shards were their own option
    std::uint64_t seed = 1;

    // --help, --games, --hidden, --init, --epochs, --batch, --learning-rate, --score-weight,
    // --validation-every, --threads, --shards, --seed, --description, --out, --curve, with the defaults
    // above as they are when called.
    void add_options(boost::program_options::options_description& described, std::string_view games_help);
    // The shared settings are in range (the message says what is needed when they are not).
    bool valid() const;
    static constexpr std::string_view requirements =
        "--games, --out, --hidden 16..1024 in steps of 16, a valid --learning-rate, --epochs and --batch >= 1, "
        "--score-weight 0..1, --validation-every >= 2 (or 0: none held out), --threads and --shards 1..64";
    // The network to start from: --init's file (its inputs and hidden units must match), or random
    // weights for about `active` inputs on at once; its first layer kept within `limit`.
    Expected<search::learning::PerspectiveNetwork> start_network(int inputs, double active, float limit) const;
    // The epoch loop's settings (the schedule was checked by valid()).
    NetworkTraining training(std::string_view program) const;
};

// The mean cross-entropy of the network's predictions over `samples`.
double mean_loss(const search::learning::PerspectiveNetwork& net, const search::learning::SparseDataset& samples,
                 int threads);

// Trains `net` in place; 0 on success, else the trainer's exit status (a file could not be
// written). `net` ends as the last epoch left it; the file holds the best one.
int train_network(search::learning::PerspectiveNetwork& net, const search::learning::SparseDataset& train,
                  const search::learning::SparseDataset& validation, const NetworkTraining& settings);

}  // namespace bge::train
