#include "tools/train/policy_training.hpp"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "tools/train/text_file.hpp"

namespace bge::train {

int train_policy(std::size_t feature_count, const search::learning::ChoiceDataset& train,
                 const search::learning::ChoiceDataset& validation, const PolicyTraining& settings, Random& random) {
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    if (!settings.initial.empty() && settings.initial.size() != feature_count) {
        std::cerr << settings.program << ": the starting policy has " << settings.initial.size() << " weights, not "
                  << feature_count << "\n";
        return 1;
    }
    search::learning::SoftmaxFit fit(feature_count, settings.initial);
    const auto hand_positions = static_cast<double>(settings.hand_written.positions);
    const double hand_loss = settings.hand_written.cross_entropy / hand_positions;
    const auto before = fit.evaluate(validation, settings.threads);
    std::cout << fmt::format("validation: hand-written ordering loss {:.4f} top-1 {:.3f}; {} policy loss {:.4f} top-1 {:.3f}\n",
                             hand_loss, settings.hand_written.top1 / hand_positions,
                             settings.initial.empty() ? "uniform" : "starting", before.cross_entropy, before.top1);
    std::string curve = "epoch,learning_rate,train_loss,validation_loss,validation_top1,hand_written_loss\n";
    curve += fmt::format("0,0,,{:.5f},{:.4f},{:.5f}\n", before.cross_entropy, before.top1, hand_loss);
    for (int epoch = 1; epoch <= settings.epochs; ++epoch) {
        const double rate = settings.schedule.at(epoch - 1, settings.epochs);
        const double train_loss = fit.train_epoch(train, settings.batch, rate, settings.l2, random, settings.threads);
        const auto held = fit.evaluate(validation, settings.threads);
        std::cout << fmt::format("epoch {:3d}  rate {:.5f}  train {:.4f}  validation {:.4f}  top-1 {:.3f}  ({:.0f} s)\n",
                                 epoch, rate, train_loss, held.cross_entropy, held.top1, seconds());
        std::cout.flush();
        curve += fmt::format("{},{:.6f},{:.5f},{:.5f},{:.4f},{:.5f}\n", epoch, rate, train_loss, held.cross_entropy,
                             held.top1, hand_loss);
    }
    if (!write_text_file(settings.program, settings.out + ".part",
                         settings.format(std::vector<float>(fit.weights().begin(), fit.weights().end()))))
        return 1;
    std::filesystem::rename(settings.out + ".part", settings.out);
    if (!settings.curve.empty() && !write_text_file(settings.program, settings.curve, curve)) return 1;
    return 0;
}

}  // namespace bge::train
