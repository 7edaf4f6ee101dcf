// The shared fitting core (search/learning/): schedules, the sparse dataset file, and the
// logistic fit recovering a model it generated data from; then train_tak_eval run for real on a
// tiny training, which must lower its loss.

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>

#include "arbiter_run.hpp"
#include "core/random.hpp"
#include "engines/gomoku/evaluation.hpp"
#include "engines/tak/evaluation.hpp"
#include "search/learning/adam.hpp"
#include "search/learning/logistic.hpp"
#include "search/learning/schedule.hpp"
#include "search/learning/softmax_fit.hpp"
#include "search/learning/sparse_dataset.hpp"

using namespace bge;
using namespace bge::search::learning;
using bge::testing::run_program;
using bge::testing::scratch;
using bge::testing::transcript;

TEST_CASE("schedules give their values at the first and last steps", "[learning]") {
    CHECK(Schedule::constant(0.3).at(7, 10) == Approx(0.3));
    const Schedule linear = Schedule::linear(1.0, 0.1);
    CHECK(linear.at(0, 10) == Approx(1.0));
    CHECK(linear.at(9, 10) == Approx(0.1));
    CHECK(linear.at(4.5, 10) == Approx(0.55));
    const Schedule cosine = Schedule::cosine(0.02, 0.001);
    CHECK(cosine.at(0, 20) == Approx(0.02));
    CHECK(cosine.at(19, 20) == Approx(0.001));
    CHECK(cosine.at(9.5, 20) == Approx(0.0105));
    auto step = Schedule::parse("step:0.1:0.5:3");
    REQUIRE(step);
    CHECK(step->at(2, 10) == Approx(0.1));
    CHECK(step->at(3, 10) == Approx(0.05));
    CHECK(step->at(6, 10) == Approx(0.025));
    auto inverse = Schedule::parse("inverse:1:10");
    REQUIRE(inverse);
    CHECK(inverse->at(10, 100) == Approx(0.5));
    CHECK(Schedule::parse("0.25")->at(3, 4) == Approx(0.25));
    CHECK(Schedule::parse("cosine:0.02:0.0005"));
    for (const char* bad : {"", "fast", "linear:1", "cosine:a:b", "step:1:0.5:0", "linear:1:2:3:4", "0.1x"})
        CHECK_FALSE(Schedule::parse(bad));
}

namespace {

// Samples of a known model: logit = sum_p b_p * w[p] . x with two phases and three features.
SparseDataset synthetic(int count, std::uint64_t seed, const std::vector<double>& truth) {
    SparseDataset data(2);
    Random random(seed);
    FeatureList row;
    for (int i = 0; i < count; ++i) {
        row.clear();
        int x[3];
        for (int f = 0; f < 3; ++f) {
            x[f] = static_cast<int>(random.below(7)) - 3;
            row.add(f, static_cast<float>(x[f]));
        }
        const float b = static_cast<float>(random.unit());
        const float phases[2] = {1 - b, b};
        double logit = 0;
        for (int f = 0; f < 3; ++f) logit += ((1 - b) * truth[f] + b * truth[3 + f]) * x[f];
        const double p = 1 / (1 + std::exp(-logit));
        data.add(row, random.unit() < p ? 1.0f : 0.0f, phases);
    }
    return data;
}

}  // namespace

TEST_CASE("the logistic fit recovers the model that made its data", "[learning]") {
    const std::vector<double> truth = {0.8, -0.5, 0.1, 0.2, 0.6, -0.9};
    const SparseDataset train = synthetic(60'000, 3, truth);
    const SparseDataset validation = synthetic(6'000, 4, truth);
    LogisticSettings settings;
    settings.epochs = 12;
    settings.batch_size = 512;
    settings.l2 = 0;
    settings.threads = 2;
    LogisticFit fit(3, std::vector<double>(6, 0.0));
    const double start = logistic_loss(validation, fit.weights(), 3);
    CHECK(start == Approx(std::log(2.0)));
    const auto curve = fit.run(train, validation, settings);
    REQUIRE(curve.size() == 12);
    CHECK(curve.back().validation_loss < start - 0.05);
    for (std::size_t i = 0; i < truth.size(); ++i) {
        INFO("weight " << i);
        CHECK(std::abs(fit.weights()[i] - truth[i]) < 0.08);
    }
    // The same seed gives the same weights on any thread count; frozen weights stay put.
    LogisticFit again(3, std::vector<double>(6, 0.0));
    settings.threads = 1;
    again.run(train, validation, settings);
    CHECK(again.weights() == fit.weights());
    settings.threads = 2;
    std::vector<bool> frozen(6, false);
    frozen[1] = frozen[4] = true;
    LogisticFit partial(3, {0, 0.25, 0, 0, -0.25, 0}, frozen);
    partial.run(train, validation, settings);
    CHECK(partial.weights()[1] == 0.25);
    CHECK(partial.weights()[4] == -0.25);
}

TEST_CASE("a sparse dataset reloads exactly from its file, and a damaged file is refused", "[learning]") {
    const SparseDataset data = synthetic(1000, 9, {0.1, 0.2, 0.3, 0.4, 0.5, 0.6});
    const std::string path = scratch().file("dataset.bin");
    REQUIRE(data.save(path).ok());
    auto loaded = SparseDataset::load(path);
    REQUIRE(loaded.ok());
    REQUIRE(loaded->size() == data.size());
    REQUIRE(loaded->entry_count() == data.entry_count());
    for (std::size_t i = 0; i < data.size(); ++i) {
        CHECK(loaded->target(i) == data.target(i));
        CHECK(loaded->phases(i)[1] == data.phases(i)[1]);
        const auto a = loaded->row(i), b = data.row(i);
        REQUIRE(a.size == b.size);
        for (std::size_t k = 0; k < a.size; ++k) {
            CHECK(a.index[k] == b.index[k]);
            CHECK(a.value[k] == b.value[k]);
        }
    }
    // Cut short.
    const std::string text = testing::read_file(path);
    std::ofstream(scratch().file("short.bin"), std::ios::binary) << text.substr(0, text.size() / 2);
    auto truncated = SparseDataset::load(scratch().file("short.bin"));
    REQUIRE_FALSE(truncated.ok());
    CHECK(truncated.error().find("truncated") != std::string::npos);
    std::ofstream(scratch().file("garbage.bin"), std::ios::binary) << "not a dataset at all, just words";
    CHECK_FALSE(SparseDataset::load(scratch().file("garbage.bin")).ok());
    CHECK_FALSE(SparseDataset::load(scratch().file("missing.bin")).ok());
    // A header that claims far more than the file holds is refused before anything is allocated.
    std::string huge = text.substr(0, 64);
    const std::uint64_t claimed = 1ULL << 35;
    std::memcpy(huge.data() + 16, &claimed, sizeof claimed);
    std::ofstream(scratch().file("huge.bin"), std::ios::binary) << huge;
    auto refused = SparseDataset::load(scratch().file("huge.bin"));
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().find("the header says") != std::string::npos);
}

TEST_CASE("a dataset of the first format (16-bit integer values) still loads", "[learning]") {
    // Two samples, one phase: {3: 2, 7: -1} -> 1.0 and {} -> 0.5, written as sparse-1 was.
    std::string bytes;
    auto put = [&](const auto& value) { bytes.append(reinterpret_cast<const char*>(&value), sizeof value); };
    for (std::uint64_t v : {std::uint64_t{0x312D657372617073ULL}, std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{2}})
        put(v);
    for (std::uint64_t offset : {0, 2, 2}) put(offset);
    for (int v : {3, 2, 7, -1}) put(static_cast<std::int16_t>(v));  // index, value pairs
    for (float f : {1.0f, 1.0f}) put(f);          // phases
    for (float f : {1.0f, 0.5f}) put(f);          // targets
    std::ofstream(scratch().file("v1.bin"), std::ios::binary) << bytes;
    auto loaded = SparseDataset::load(scratch().file("v1.bin"));
    REQUIRE(loaded.ok());
    REQUIRE(loaded->size() == 2);
    const auto row = loaded->row(0);
    REQUIRE(row.size == 2);
    CHECK(row.index[0] == 3);
    CHECK(row.value[0] == 2.0f);
    CHECK(row.index[1] == 7);
    CHECK(row.value[1] == -1.0f);
    CHECK(loaded->row(1).size == 0);
    CHECK(loaded->target(1) == 0.5f);
    // Saved again, it is the current format and reads back the same.
    REQUIRE(loaded->save(scratch().file("v2.bin")).ok());
    auto again = SparseDataset::load(scratch().file("v2.bin"));
    REQUIRE(again.ok());
    CHECK(again->row(0).value[1] == -1.0f);
}

namespace {

const std::string trainer = BGE_TRAIN_TAK_EVAL_BINARY;

double number_after(const std::string& line, const std::string& word) {
    const auto at = line.find(word);
    REQUIRE(at != std::string::npos);
    return std::stod(line.substr(at + word.size()));
}

}  // namespace

TEST_CASE("train_tak_eval: a tiny self-play and fit lowers the loss, the same games on any thread count",
          "[learning][tak]") {
    const std::string games = scratch().file("tiny_games.bin");
    const auto played = run_program(trainer, {"selfplay", "--size", "4", "--half-komi", "0", "--games", "24", "--nodes",
                                              "400", "--threads", "2", "--seed", "5", "--out", games});
    INFO(transcript(played));
    REQUIRE(played.status == 0);
    REQUIRE(played.lines.size() == 1);
    CHECK(played.lines[0].rfind("4x4 komi 0: 24 games (", 0) == 0);
    const std::string one_thread = scratch().file("tiny_games_1.bin");
    REQUIRE(run_program(trainer, {"selfplay", "--size", "4", "--half-komi", "0", "--games", "24", "--nodes", "400",
                                  "--threads", "1", "--seed", "5", "--out", one_thread})
                .status == 0);
    CHECK(testing::read_file(games) == testing::read_file(one_thread));
    // Three shards (a cluster's tasks) play the same games: their files, header dropped after the
    // first, are the whole run's, and fit reads them as it reads the whole file.
    std::string joined;
    std::vector<std::string> shard_files;
    for (int k = 1; k <= 3; ++k) {
        const std::string part = scratch().file("tiny_games_shard" + std::to_string(k) + ".bin");
        const auto shard = run_program(trainer, {"selfplay", "--size", "4", "--half-komi", "0", "--games", "24",
                                                 "--nodes", "400", "--threads", "1", "--seed", "5", "--shard",
                                                 std::to_string(k) + "/3", "--out", part});
        INFO(transcript(shard));
        REQUIRE(shard.status == 0);
        CHECK(shard.errors.find("shard " + std::to_string(k) + "/3: games " + std::to_string(8 * k - 7) + " to " +
                                std::to_string(8 * k) + " of 24") != std::string::npos);
        const std::string bytes = testing::read_file(part);
        joined += k == 1 ? bytes : bytes.substr(16);  // the 16-byte "bge-tak-games-1" header
        shard_files.push_back(part);
    }
    CHECK(joined == testing::read_file(games));
    const std::string whole_fit = scratch().file("tiny_whole_fit.txt"), shards_fit = scratch().file("tiny_shards_fit.txt");
    REQUIRE(run_program(trainer, {"fit", "--games", games, "--init", "zero", "--epochs", "2", "--out", whole_fit}).status == 0);
    std::vector<std::string> fit_arguments = {"fit", "--games"};
    fit_arguments.insert(fit_arguments.end(), shard_files.begin(), shard_files.end());
    fit_arguments.insert(fit_arguments.end(), {"--init", "zero", "--epochs", "2", "--out", shards_fit});
    REQUIRE(run_program(trainer, fit_arguments).status == 0);
    CHECK(testing::read_file(whole_fit) == testing::read_file(shards_fit));
    CHECK(run_program(trainer, {"selfplay", "--size", "4", "--shard", "4/3", "--out", scratch().file("x.bin")}).status == 2);

    const std::string weights = scratch().file("tiny_weights.txt");
    const std::string curve = scratch().file("tiny_curve.csv");
    const auto fitted = run_program(
        trainer, {"fit", "--games", games, "--init", "zero", "--epochs", "6", "--batch", "64", "--learning-rate",
                  "0.01", "--validation-every", "4", "--out", weights, "--curve", curve});
    INFO(transcript(fitted));
    REQUIRE(fitted.status == 0);
    REQUIRE(fitted.lines.size() == 7);
    const double start = number_after(fitted.lines[0], "validation loss ");
    CHECK(start == Approx(std::log(2.0)).epsilon(1e-4));
    const double end_train = number_after(fitted.lines.back(), "train ");
    const double end_validation = number_after(fitted.lines.back(), "validation ");
    CHECK(end_validation < start - 0.01);
    CHECK(end_train < start - 0.01);
    auto written = tak::load_eval_weights(weights);
    REQUIRE(written.ok());
    CHECK(written->present[4]);
    CHECK(testing::read_file(curve).rfind("size,epoch,learning_rate,train_loss,validation_loss\n4,0,", 0) == 0);

    // --freeze keeps the named blocks at their starting weights (the built-in ones here), even a
    // feature the games never show (komi: these games have none), and fits the rest.
    const std::string frozen_file = scratch().file("tiny_frozen.txt");
    const auto frozen = run_program(trainer, {"fit", "--games", games, "--epochs", "3", "--batch", "64", "--freeze",
                                              "lines_us", "komi", "--out", frozen_file});
    INFO(transcript(frozen));
    REQUIRE(frozen.status == 0);
    auto frozen_weights = tak::load_eval_weights(frozen_file);
    REQUIRE(frozen_weights.ok());
    namespace features = tak::features;
    const tak::EvalWeights& before = tak::builtin_eval_weights().for_size(4);
    const tak::EvalWeights& after = frozen_weights->by_size[4];
    int kept = 0, moved = 0;
    for (int i = 0; i < features::count; ++i) {
        const features::BlockId block = features::block_of(i);
        const bool is_frozen = block == features::lines_us || block == features::komi;
        const auto k = static_cast<std::size_t>(i);
        if (is_frozen) {
            CHECK(after.opening[k] == before.opening[k]);
            CHECK(after.endgame[k] == before.endgame[k]);
            kept += before.opening[k] != 0 || before.endgame[k] != 0;
        } else if (after.opening[k] != before.opening[k] || after.endgame[k] != before.endgame[k]) {
            ++moved;
        }
    }
    CHECK(kept > 0);
    CHECK(moved > 10);
}

TEST_CASE("train_tak_eval refuses bad input with the reason", "[learning][tak]") {
    const auto missing = run_program(trainer, {"fit", "--games", scratch().file("no_such_games.bin")});
    CHECK(missing.status == 1);
    CHECK(missing.errors.find("cannot open the games file") != std::string::npos);
    std::ofstream(scratch().file("bad_games.bin"), std::ios::binary) << "bge-tak-games-1" << '\0' << "\x06\x04";
    const auto damaged = run_program(trainer, {"fit", "--games", scratch().file("bad_games.bin")});
    CHECK(damaged.status == 1);
    CHECK(damaged.errors.find("truncated") != std::string::npos);
    const auto bad_rate = run_program(trainer, {"fit", "--games", "x", "--learning-rate", "quick"});
    CHECK(bad_rate.status == 2);
    const auto bad_command = run_program(trainer, {"train"});
    CHECK(bad_command.status == 2);
    CHECK(bad_command.errors.find("unknown command 'train'") != std::string::npos);
    const auto bad_size = run_program(trainer, {"selfplay", "--size", "9", "--out", scratch().file("x.bin")});
    CHECK(bad_size.status == 2);
    const auto bad_drop = run_program(trainer, {"fit", "--games", "x", "--drop", "nonsense"});
    CHECK(bad_drop.status == 2);
    CHECK(bad_drop.errors.find("no feature block 'nonsense'") != std::string::npos);
    const auto bad_freeze = run_program(trainer, {"fit", "--games", "x", "--freeze", "flats"});
    CHECK(bad_freeze.status == 2);
    CHECK(bad_freeze.errors.find("--freeze: no feature block 'flats'") != std::string::npos);
}

TEST_CASE("train_gomoku_eval: self-play and fit give weights the engine plays with", "[learning][gomoku]") {
    const std::string gomoku_trainer = BGE_TRAIN_GOMOKU_EVAL_BINARY;
    const std::string data = scratch().file("gomoku_tiny.bin");
    const auto played = run_program(gomoku_trainer, {"selfplay", "--rule", "renju", "--games", "8", "--nodes", "300",
                                                     "--threads", "2", "--seed", "3", "--out", data});
    INFO(transcript(played));
    REQUIRE(played.status == 0);
    CHECK(played.errors.find("8 games, ") != std::string::npos);
    // The same games whatever the thread count.
    const std::string one_thread = scratch().file("gomoku_tiny_1.bin");
    REQUIRE(run_program(gomoku_trainer, {"selfplay", "--rule", "renju", "--games", "8", "--nodes", "300", "--threads",
                                         "1", "--seed", "3", "--out", one_thread})
                .status == 0);
    CHECK(testing::read_file(data) == testing::read_file(one_thread));
    // Two shards play the same games; fit reads their datasets in order as it reads the whole one
    // (the held-out positions counted across the files).
    std::vector<std::string> shard_files;
    for (int k = 1; k <= 2; ++k) {
        shard_files.push_back(scratch().file("gomoku_tiny_shard" + std::to_string(k) + ".bin"));
        const auto shard = run_program(gomoku_trainer, {"selfplay", "--rule", "renju", "--games", "8", "--nodes", "300",
                                                        "--seed", "3", "--shard", std::to_string(k) + "/2", "--out",
                                                        shard_files.back()});
        INFO(transcript(shard));
        REQUIRE(shard.status == 0);
        CHECK(shard.errors.find("4 games (shard " + std::to_string(k) + "/2") != std::string::npos);
    }
    const std::string whole_fit = scratch().file("gomoku_whole_fit.txt"), shards_fit = scratch().file("gomoku_shards_fit.txt");
    REQUIRE(run_program(gomoku_trainer, {"fit", "--data", data, "--out", whole_fit, "--epochs", "3"}).status == 0);
    REQUIRE(run_program(gomoku_trainer, {"fit", "--data", shard_files[0], shard_files[1], "--out", shards_fit, "--epochs", "3"})
                .status == 0);
    CHECK(testing::read_file(whole_fit) == testing::read_file(shards_fit));

    const std::string weights = scratch().file("gomoku_tiny_weights.txt");
    const auto fitted = run_program(gomoku_trainer, {"fit", "--data", data, "--out", weights, "--epochs", "20",
                                                     "--batch", "32", "--learning-rate", "0.003",
                                                     "--validation-every", "0"});
    INFO(transcript(fitted));
    REQUIRE(fitted.status == 0);
    REQUIRE(fitted.lines.size() == 22);  // the CSV header, epoch 0, then 20 epochs
    CHECK(fitted.lines[0] == "epoch,learning_rate,train_loss,validation_loss");
    const double first = std::stod(fitted.lines[2].substr(fitted.lines[2].find(',', 2) + 1));
    const double last = std::stod(fitted.lines.back().substr(fitted.lines.back().find(',', 3) + 1));
    CHECK(last < first);
    const auto loaded = gomoku::load_fitted_weights(weights);
    REQUIRE(loaded.ok());

    // The engine plays with the file; a broken one is reported and the built-in weights used.
    const std::string broken = scratch().file("gomoku_broken_weights.txt");
    std::ofstream(broken) << "mover_one 5\nmover_bogus 3\n";
    CHECK_FALSE(gomoku::load_fitted_weights(broken).ok());
    CHECK(gomoku::load_fitted_weights(broken).error().find("unknown feature 'mover_bogus'") != std::string::npos);
    for (const std::string& file : {weights, broken}) {
        const auto run = run_program(BGE_GOMOKU_BINARY, {"setoption name EvalFile value " + file,
                                                         "position startpos moves h8 h9 i8", "go depth 3"});
        INFO(transcript(run));
        CHECK(run.status == 0);
        CHECK(run.lines.back().rfind("bestmove ", 0) == 0);
        if (file == broken) CHECK(run.errors.find("EvalFile") != std::string::npos);
    }

    // The built-in weights as a file read back as the same weights; a fit of the 32 features
    // before shape classes leaves every shape weight at 0; positions decided by rule can be left
    // out, and are counted.
    const std::string builtin = scratch().file("gomoku_builtin_renju.txt");
    const auto dumped = run_program(gomoku_trainer, {"builtin", "renju"});
    REQUIRE(dumped.status == 0);
    {
        std::ofstream file(builtin);
        for (const auto& line : dumped.lines) file << line << "\n";
    }
    const auto builtin_loaded = gomoku::load_fitted_weights(builtin);
    REQUIRE(builtin_loaded.ok());
    CHECK(builtin_loaded->weight == gomoku::builtin_fitted_weights(gomoku::Rule::renju)->weight);
    const std::string classic = scratch().file("gomoku_classic_weights.txt");
    const auto classic_fit =
        run_program(gomoku_trainer, {"fit", "--data", data, "--out", classic, "--epochs", "3", "--batch", "32",
                                     "--features", "classic", "--positions", "undecided", "--start", builtin});
    INFO(transcript(classic_fit));
    REQUIRE(classic_fit.status == 0);
    CHECK(classic_fit.errors.find("positions left out (decided by rule)") != std::string::npos);
    const auto classic_loaded = gomoku::load_fitted_weights(classic);
    REQUIRE(classic_loaded.ok());
    for (int i = gomoku::eval_classic_feature_count; i < gomoku::eval_feature_count; ++i)
        CHECK(classic_loaded->weight[static_cast<std::size_t>(i)] == 0);
    CHECK(run_program(gomoku_trainer, {"builtin", "caro"}).status == 2);

    const auto bad_rule = run_program(gomoku_trainer, {"selfplay", "--rule", "caro", "--out", data});
    CHECK(bad_rule.status == 2);
    const auto not_gomoku = run_program(gomoku_trainer, {"fit", "--data", scratch().file("none.bin"), "--out", weights});
    CHECK(not_gomoku.status == 1);
    CHECK(not_gomoku.errors.find("cannot open the dataset") != std::string::npos);
}

TEST_CASE("adam: one optimiser for every fit, the same steps on any thread count", "[learning]") {
    // Samples i = 0..99 pull parameter 0 towards 3 and parameter 1 towards -2 (squared error);
    // parameter 2 is frozen.
    std::vector<std::uint32_t> order(100);
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    const std::vector<bool> frozen = {false, false, true};
    std::vector<double> results[2];
    for (int threads = 1; threads <= 2; ++threads) {
        std::vector<double> w = {0, 0, 7};
        Adam<double> adam(w.size(), 4);
        FitLoss loss;
        for (int epoch = 0; epoch < 200; ++epoch)
            loss = adam.run(w.data(), order, 10, StepSettings{0.05, 0, &frozen}, threads,
                            [&](int, std::uint32_t i, double* gradient) {
                                const double target0 = 3 + (i % 2 ? 0.01 : -0.01), target1 = -2.0;
                                gradient[0] += 2 * (w[0] - target0);
                                gradient[1] += 2 * (w[1] - target1);
                                gradient[2] += 1;
                                return FitLoss{0, (w[0] - target0) * (w[0] - target0)};
                            });
        CHECK(adam.steps() == 200 * 10);
        CHECK(w[0] == Approx(3).margin(0.01));
        CHECK(w[1] == Approx(-2).margin(0.01));
        CHECK(w[2] == 7);
        CHECK(loss.squared_error / 100 < 0.001);
        results[threads - 1] = w;
    }
    CHECK(results[0] == results[1]);
}

TEST_CASE("the softmax fit learns which candidate is chosen, the same on any thread count", "[learning]") {
    // Three candidates a position, features 0..3; the chosen one always carries feature 1, the
    // others features 0, 2 or 3 at random.
    ChoiceDataset data;
    Random random(11);
    for (int p = 0; p < 2000; ++p) {
        const auto chosen = static_cast<std::uint32_t>(random.below(3));
        data.begin_position(chosen);
        for (std::uint32_t c = 0; c < 3; ++c) {
            const std::uint16_t other = std::array<std::uint16_t, 3>{0, 2, 3}[random.below(3)];
            data.add_candidate(c == chosen ? std::vector<std::uint16_t>{1, other} : std::vector<std::uint16_t>{other});
        }
    }
    std::vector<double> weights[2];
    for (int threads = 1; threads <= 2; ++threads) {
        SoftmaxFit fit(4);
        Random order(5);
        const double before = fit.evaluate(data, threads).cross_entropy;
        CHECK(before == Approx(std::log(3.0)));
        for (int epoch = 0; epoch < 5; ++epoch) fit.train_epoch(data, 64, 0.1, 1e-5, order, threads);
        const auto after = fit.evaluate(data, threads);
        CHECK(after.cross_entropy < 0.2);
        CHECK(after.top1 > 0.99);
        CHECK(fit.weights()[1] > fit.weights()[0] + 2);
        weights[threads - 1] = fit.weights();
    }
    CHECK(weights[0] == weights[1]);
}
