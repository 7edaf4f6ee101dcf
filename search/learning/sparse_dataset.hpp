#pragma once
// Training samples for linear evaluations, written once for every game's trainer: each sample is
// a sparse feature vector (index, value), the weights of the game phases it belongs to, and a
// target in [0, 1] (the game's result for the side to move, or a blend with a search score).
//
// Stored as compressed rows, four bytes an entry, so millions of positions fit in memory and
// reload from the binary file (save/load) in a second.

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/expected.hpp"

namespace bge::search::learning {

struct SparseEntry {
    std::uint16_t index;
    std::int16_t value;
};

class SparseDataset {
public:
    explicit SparseDataset(std::size_t phase_count = 1) : phase_count_(phase_count) { offsets_.push_back(0); }

    std::size_t size() const { return targets_.size(); }
    std::size_t phase_count() const { return phase_count_; }
    std::size_t entry_count() const { return entries_.size(); }

    // Adds a sample; `phases` holds phase_count() weights (usually summing to 1).
    void add(const std::vector<SparseEntry>& features, const float* phases, float target) {
        entries_.insert(entries_.end(), features.begin(), features.end());
        offsets_.push_back(entries_.size());
        phases_.insert(phases_.end(), phases, phases + phase_count_);
        targets_.push_back(target);
    }
    void append(const SparseDataset& other) {
        for (std::size_t i = 0; i < other.size(); ++i) {
            const auto row = other.row(i);
            entries_.insert(entries_.end(), row.begin, row.end);
            offsets_.push_back(entries_.size());
            phases_.insert(phases_.end(), other.phases(i), other.phases(i) + phase_count_);
            targets_.push_back(other.target(i));
        }
    }

    struct Row {
        const SparseEntry* begin;
        const SparseEntry* end;
    };
    Row row(std::size_t i) const { return {entries_.data() + offsets_[i], entries_.data() + offsets_[i + 1]}; }
    const float* phases(std::size_t i) const { return phases_.data() + i * phase_count_; }
    float target(std::size_t i) const { return targets_[i]; }

    // The binary file: "bge-sparse-1", the phase count and sizes, then the arrays as they are in
    // memory (little-endian machines only, which is all we build for).
    Status save(const std::string& path) const {
        std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"), &std::fclose);
        if (!file) return make_error("cannot write the dataset '" + path + "'");
        const std::uint64_t header[4] = {magic, phase_count_, targets_.size(), entries_.size()};
        bool ok = std::fwrite(header, sizeof header, 1, file.get()) == 1;
        ok = ok && write_all(file.get(), offsets_) && write_all(file.get(), entries_) &&
             write_all(file.get(), phases_) && write_all(file.get(), targets_);
        if (!ok) return make_error("writing the dataset '" + path + "' failed");
        return success();
    }
    static Expected<SparseDataset> load(const std::string& path) {
        std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
        if (!file) return make_error("cannot open the dataset '" + path + "'");
        std::uint64_t header[4];
        if (std::fread(header, sizeof header, 1, file.get()) != 1 || header[0] != magic)
            return make_error("'" + path + "' is not a dataset file (bad header)");
        if (header[1] == 0 || header[1] > 16 || header[2] > (1ULL << 36) || header[3] > (1ULL << 40))
            return make_error("'" + path + "': implausible sizes in the header");
        SparseDataset data(header[1]);
        data.offsets_.resize(header[2] + 1);
        data.entries_.resize(header[3]);
        data.phases_.resize(header[2] * header[1]);
        data.targets_.resize(header[2]);
        const bool ok = read_all(file.get(), data.offsets_) && read_all(file.get(), data.entries_) &&
                        read_all(file.get(), data.phases_) && read_all(file.get(), data.targets_);
        if (!ok || data.offsets_.front() != 0 || data.offsets_.back() != data.entries_.size())
            return make_error("'" + path + "' is truncated or damaged");
        for (std::size_t i = 0; i + 1 < data.offsets_.size(); ++i)
            if (data.offsets_[i] > data.offsets_[i + 1]) return make_error("'" + path + "' is damaged (row offsets)");
        return data;
    }

private:
    static constexpr std::uint64_t magic = 0x312D657372617073ULL;  // "sparse-1"

    template <class T>
    static bool write_all(std::FILE* file, const std::vector<T>& values) {
        return values.empty() || std::fwrite(values.data(), sizeof(T), values.size(), file) == values.size();
    }
    template <class T>
    static bool read_all(std::FILE* file, std::vector<T>& values) {
        return values.empty() || std::fread(values.data(), sizeof(T), values.size(), file) == values.size();
    }

    std::size_t phase_count_;
    std::vector<std::uint64_t> offsets_;
    std::vector<SparseEntry> entries_;
    std::vector<float> phases_;
    std::vector<float> targets_;
};

}  // namespace bge::search::learning
