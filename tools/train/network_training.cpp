#include "tools/train/network_training.hpp"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <numeric>
#include <thread>
#include <vector>

#include "core/random.hpp"
#include "search/learning/cross_entropy.hpp"
#include "tools/train/text_file.hpp"

namespace bge::train {

using search::learning::FeatureList;
using search::learning::PerspectiveNetwork;
using search::learning::SparseDataset;

void NetworkCommand::add_options(boost::program_options::options_description& described,
                                 std::string_view games_help) {
    namespace po = boost::program_options;
    described.add_options()("help", "this help")("games", po::value(&game_files)->multitoken(), std::string(games_help).c_str())(
        "hidden", po::value(&hidden)->default_value(hidden), "hidden units per perspective (16..1024, steps of 16)")(
        "init", po::value(&init), "start from this network file instead of random weights")(
        "epochs", po::value(&epochs)->default_value(epochs), "passes over the data")(
        "batch", po::value(&batch)->default_value(batch), "positions per step")(
        "learning-rate", po::value(&learning_rate)->default_value(learning_rate),
        "Adam step size over epochs: a number, linear:A:B, cosine:A:B, step:A:F:N, inverse:A:N")(
        "score-weight", po::value(&score_weight)->default_value(score_weight),
        "blend of the search score into the target, 0 (result only) to 1")(
        "validation-every", po::value(&validation_every)->default_value(validation_every), "hold out every n-th game")(
        "threads", po::value(&threads)->default_value(threads), "threads (the weights do not depend on them)")(
        "shards", po::value(&shards)->default_value(shards),
        "each batch's gradient is summed over this many shards in a fixed order (the weights depend on them)")(
        "seed", po::value(&seed)->default_value(seed), "seed of the initial weights and the batch order")(
        "description", po::value(&description), "how the network was made, kept in its file")(
        "out", po::value(&out), "network file to write")("curve", po::value(&curve), "write the learning curve here (CSV)");
}

bool NetworkCommand::valid() const {
    return search::learning::Schedule::parse(learning_rate) && !game_files.empty() && !out.empty() && hidden >= 16 &&
           hidden <= search::learning::nnue::max_hidden && hidden % 16 == 0 && epochs >= 1 && batch >= 1 &&
           score_weight >= 0 && score_weight <= 1 && threads >= 1 && threads <= 64 && shards >= 1 && shards <= 64 &&
           (validation_every == 0 || validation_every >= 2);
}

Expected<PerspectiveNetwork> NetworkCommand::start_network(int inputs, double active, float limit) const {
    PerspectiveNetwork net(inputs, hidden);
    if (!init.empty()) {
        std::ifstream in(init, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        auto loaded = search::learning::parse_network(bytes);
        if (!in.good() && bytes.empty()) loaded = make_error("cannot read " + init);
        if (!loaded) return make_error("--init " + init + ": " + loaded.error());
        if (loaded->inputs() != inputs || loaded->hidden() != hidden)
            return make_error("--init " + init + ": its shape differs from the inputs and --hidden");
        net = std::move(*loaded);
    } else {
        net.randomize(seed, active);
    }
    net.set_first_layer_limit(limit);
    net.constrain(0, net.parameters().size());
    net.description = description;
    return net;
}

NetworkTraining NetworkCommand::training(std::string_view program) const {
    NetworkTraining settings;
    settings.program = program;
    settings.epochs = epochs;
    settings.batch = batch;
    settings.schedule = *search::learning::Schedule::parse(learning_rate);
    settings.threads = threads;
    settings.shards = shards;
    settings.seed = seed;
    settings.out = out;
    settings.curve = curve;
    return settings;
}

double mean_loss(const PerspectiveNetwork& net, const SparseDataset& samples, int threads) {
    // Each sample's loss in its own slot, summed in order: the same on any thread count (the
    // best validation loss decides which epoch is kept).
    std::vector<double> losses(samples.size());
    std::vector<std::thread> workers;
    auto work = [&](int t) {
        FeatureList x;
        for (std::size_t i = static_cast<std::size_t>(t); i < samples.size(); i += static_cast<std::size_t>(threads)) {
            samples.row(i, x);
            losses[i] = search::learning::cross_entropy(net.probability(x), samples.target(i));
        }
    };
    for (int t = 1; t < threads; ++t) workers.emplace_back(work, t);
    work(0);
    for (auto& worker : workers) worker.join();
    return samples.size() ? std::accumulate(losses.begin(), losses.end(), 0.0) / static_cast<double>(samples.size()) : 0;
}

int train_network(PerspectiveNetwork& net, const SparseDataset& train, const SparseDataset& validation,
                  const NetworkTraining& settings) {
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    auto save = [&] {
        if (!write_text_file(settings.program, settings.out + ".part", search::learning::format_network(net)))
            return false;
        std::filesystem::rename(settings.out + ".part", settings.out);
        return true;
    };
    const bool reference = !settings.reference_column.empty();
    const double before = mean_loss(net, validation, settings.threads);
    std::string curve = "epoch,learning_rate,train_loss,validation_loss";
    curve += reference ? "," + settings.reference_column + "\n" : "\n";
    auto reference_cell = [&] { return reference ? fmt::format(",{:.6f}", settings.reference_loss) : std::string(); };
    curve += fmt::format("0,0,,{:.6f}{}\n", before, reference_cell());

    search::learning::NetworkFit fit(net, settings.threads, settings.shards);
    std::vector<std::uint32_t> order(train.size());
    std::iota(order.begin(), order.end(), 0u);
    Random shuffle(settings.seed ^ 0x5DEECE66DULL);
    double best_validation = before;
    int best_epoch = 0;
    if (!save()) return 1;
    for (int epoch = 1; epoch <= settings.epochs; ++epoch) {
        for (std::size_t i = order.size(); i > 1; --i)
            std::swap(order[i - 1], order[shuffle.below(static_cast<std::uint32_t>(i))]);
        const double rate = settings.schedule.at(epoch - 1, settings.epochs);
        const auto loss = fit.train(train, order, settings.batch, rate);
        const double validation_loss = mean_loss(net, validation, settings.threads);
        std::cout << fmt::format("epoch {:3d}  rate {:.6f}  train {:.5f}  validation {:.5f}  ({:.0f} s)\n", epoch,
                                 rate, loss.cross_entropy, validation_loss, seconds());
        std::cout.flush();
        curve += fmt::format("{},{:.7f},{:.6f},{:.6f}{}\n", epoch, rate, loss.cross_entropy, validation_loss,
                             reference_cell());
        // Self-play positions of one game share its result, so a network can learn games by
        // heart: the best validation loss decides what is kept.
        if (validation_loss < best_validation) {
            best_validation = validation_loss;
            best_epoch = epoch;
            if (!save()) return 1;
        }
    }
    if (!settings.curve.empty() && !write_text_file(settings.program, settings.curve, curve)) return 1;
    std::cout << fmt::format("kept the network of epoch {} (validation {:.5f})\n", best_epoch, best_validation);
    return 0;
}

}  // namespace bge::train
