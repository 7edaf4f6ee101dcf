#pragma once
// Training samples, written once for every trainer (linear evaluations, networks, TD targets):
// each sample is a sparse feature vector (index, value), optionally the weights of the game
// phases it belongs to, and a target in [0, 1] (the game's result for the side to move, a blend
// with a search score, or a TD(lambda) return).
//
// Stored as compressed rows, six bytes an entry (a 16-bit index and a float value in two arrays),
// so millions of positions fit in memory and reload from the binary file (save/load) in seconds.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "search/learning/feature_list.hpp"

namespace bge::search::learning {

class SparseDataset {
public:
    // phase_count 0: samples without phases (the networks'); linear evaluations blend 1..16 phases.
    SparseDataset() : SparseDataset(0) {}
    explicit SparseDataset(std::size_t phase_count) : phase_count_(phase_count) { offsets_.push_back(0); }

    std::size_t size() const { return targets_.size(); }
    std::size_t phase_count() const { return phase_count_; }
    std::size_t entry_count() const { return index_.size(); }

    void clear() {
        offsets_.assign(1, 0);
        index_.clear();
        value_.clear();
        phases_.clear();
        targets_.clear();
    }

    // Adds a sample without phases (phase_count() 0).
    void add(const FeatureList& x, float target) {
        if (phase_count_ != 0) throw std::invalid_argument("SparseDataset::add: this dataset's samples have phases");
        add_row(x, target);
    }
    // Adds a sample; `phases` holds phase_count() weights (usually summing to 1).
    void add(const FeatureList& x, float target, const float* phases) {
        if (phase_count_ == 0) throw std::invalid_argument("SparseDataset::add: this dataset's samples have no phases");
        phases_.insert(phases_.end(), phases, phases + phase_count_);
        add_row(x, target);
    }
    void append(const SparseDataset& other) {
        if (other.phase_count_ != phase_count_) throw std::invalid_argument("SparseDataset::append: phase counts differ");
        const std::uint64_t base = index_.size();
        index_.insert(index_.end(), other.index_.begin(), other.index_.end());
        value_.insert(value_.end(), other.value_.begin(), other.value_.end());
        for (std::size_t i = 1; i < other.offsets_.size(); ++i) offsets_.push_back(base + other.offsets_[i]);
        phases_.insert(phases_.end(), other.phases_.begin(), other.phases_.end());
        targets_.insert(targets_.end(), other.targets_.begin(), other.targets_.end());
    }

    struct Row {
        const std::uint16_t* index;
        const float* value;
        std::size_t size;
    };
    Row row(std::size_t i) const {
        const std::uint64_t begin = offsets_[i];
        return {index_.data() + begin, value_.data() + begin, static_cast<std::size_t>(offsets_[i + 1] - begin)};
    }
    // The row as a network reads it.
    void row(std::size_t i, FeatureList& x) const {
        const Row r = row(i);
        x.size = static_cast<int>(r.size);
        std::copy(r.index, r.index + r.size, x.index.begin());
        std::copy(r.value, r.value + r.size, x.value.begin());
    }
    const float* phases(std::size_t i) const { return phases_.data() + i * phase_count_; }
    float target(std::size_t i) const { return targets_[i]; }

    // The binary file: "sparse-2", the phase count and sizes, then the arrays as they are in
    // memory (little-endian machines only, which is all we build for). load() also reads the
    // older "sparse-1" files, whose values were 16-bit integers stored beside their indices.
    Status save(const std::string& path) const {
        std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"), &std::fclose);
        if (!file) return make_error("cannot write the dataset '" + path + "'");
        const std::uint64_t header[4] = {magic, phase_count_, targets_.size(), index_.size()};
        bool ok = std::fwrite(header, sizeof header, 1, file.get()) == 1;
        ok = ok && write_all(file.get(), offsets_) && write_all(file.get(), index_) && write_all(file.get(), value_) &&
             write_all(file.get(), phases_) && write_all(file.get(), targets_);
        if (!ok) return make_error("writing the dataset '" + path + "' failed");
        return success();
    }
    static Expected<SparseDataset> load(const std::string& path) {
        std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
        if (!file) return make_error("cannot open the dataset '" + path + "'");
        std::uint64_t header[4];
        if (std::fread(header, sizeof header, 1, file.get()) != 1 || (header[0] != magic && header[0] != magic_v1))
            return make_error("'" + path + "' is not a dataset file (bad header)");
        if (header[1] > 16 || header[2] > (1ULL << 36) || header[3] > (1ULL << 40))
            return make_error("'" + path + "': implausible sizes in the header");
        // The header's sizes must account for the file's length exactly, before anything is
        // allocated from them.
        const std::uint64_t entry_bytes = header[0] == magic ? sizeof(std::uint16_t) + sizeof(float) : 4;
        const std::uint64_t expected = sizeof header + (header[2] + 1) * sizeof(std::uint64_t) + header[3] * entry_bytes +
                                       (header[2] * header[1] + header[2]) * sizeof(float);
        if (std::fseek(file.get(), 0, SEEK_END) != 0) return make_error("cannot read the dataset '" + path + "'");
        const long length = std::ftell(file.get());
        if (length < 0 || static_cast<std::uint64_t>(length) != expected)
            return make_error("'" + path + "' is truncated or damaged (" + std::to_string(length) + " bytes, the header says " +
                              std::to_string(expected) + ")");
        std::fseek(file.get(), sizeof header, SEEK_SET);
        SparseDataset data(header[1]);
        data.offsets_.resize(header[2] + 1);
        data.index_.resize(header[3]);
        data.value_.resize(header[3]);
        data.phases_.resize(header[2] * header[1]);
        data.targets_.resize(header[2]);
        bool ok = read_all(file.get(), data.offsets_);
        if (header[0] == magic) {
            ok = ok && read_all(file.get(), data.index_) && read_all(file.get(), data.value_);
        } else {
            struct Entry {
                std::uint16_t index;
                std::int16_t value;
            };
            std::vector<Entry> entries(header[3]);
            ok = ok && read_all(file.get(), entries);
            for (std::size_t k = 0; ok && k < entries.size(); ++k) {
                data.index_[k] = entries[k].index;
                data.value_[k] = entries[k].value;
            }
        }
        ok = ok && read_all(file.get(), data.phases_) && read_all(file.get(), data.targets_);
        if (!ok || data.offsets_.front() != 0 || data.offsets_.back() != data.index_.size())
            return make_error("'" + path + "' is truncated or damaged");
        for (std::size_t i = 0; i + 1 < data.offsets_.size(); ++i)
            if (data.offsets_[i] > data.offsets_[i + 1] ||
                data.offsets_[i + 1] - data.offsets_[i] > static_cast<std::uint64_t>(FeatureList::capacity))
                return make_error("'" + path + "' is damaged (row offsets)");
        return data;
    }

private:
    void add_row(const FeatureList& x, float target) {
        index_.insert(index_.end(), x.index.begin(), x.index.begin() + x.size);
        value_.insert(value_.end(), x.value.begin(), x.value.begin() + x.size);
        offsets_.push_back(index_.size());
        targets_.push_back(target);
    }

    static constexpr std::uint64_t magic = 0x322D657372617073ULL;     // "sparse-2"
    static constexpr std::uint64_t magic_v1 = 0x312D657372617073ULL;  // "sparse-1"

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
    std::vector<std::uint16_t> index_;
    std::vector<float> value_;
    std::vector<float> phases_;
    std::vector<float> targets_;
};

}  // namespace bge::search::learning
