#include "engines/tak/network.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>

#include "engines/tak/nets/embedded.hpp"

namespace bge::tak::network {

using search::learning::FeatureList;
using search::learning::QuantisedNetwork;

namespace {

constexpr int top_kinds = 6;
constexpr int board_blocks = top_kinds + 2 * levels_below_top;
constexpr int komi_buckets = 9;

// What a square shows the network, in 16 bits: the colours of its top pieces (bit i = the piece
// i below the top, 1 = Black) up to levels_below_top + 1 of them, their count, the top's kind.
// Two squares with the same signature have the same inputs.
std::uint16_t signature(const State& state, int square) {
    const int height = state.height[square];
    if (height == 0) return 0;
    const int count = std::min(height, levels_below_top + 1);
    const auto colours = static_cast<unsigned>(state.stack_colors[square] >> (height - count)) & ((1u << count) - 1);
    // Reverse so that bit 0 is the top piece.
    unsigned top_first = 0;
    for (int i = 0; i < count; ++i) top_first |= ((colours >> (count - 1 - i)) & 1u) << i;
    return static_cast<std::uint16_t>(top_first | (count << 7) | (static_cast<int>(state.top_stone(square)) << 10));
}

int board_index(int square, int size) { return row_of(square) * size + column_of(square); }

// Calls add(input) for each input of a square with `sig`, from `perspective`.
template <class Add>
void square_inputs(std::uint16_t sig, int cell, int size, Side perspective, Add&& add) {
    const int count = (sig >> 7) & 7;
    if (count == 0) return;
    const int area = size * size;
    const unsigned mine = perspective == Side::second ? 1u : 0u;
    const int kind = (sig >> 10) & 3;
    add((((sig & 1u) == mine) ? kind : 3 + kind) * area + cell);
    for (int level = 1; level < count; ++level) {
        const bool own = ((sig >> level) & 1u) == mine;
        add((top_kinds + (level - 1) * 2 + (own ? 0 : 1)) * area + cell);
    }
}

struct ReserveLayout {
    int stones_base, caps_base, komi_base, stones, caps;
    explicit ReserveLayout(int size) {
        const Reserves r = reserves_for(size);
        stones = r.stones;
        caps = r.caps;
        stones_base = board_blocks * size * size;
        caps_base = stones_base + 2 * (stones + 1);
        komi_base = caps_base + 2 * (caps + 1);
    }
    int own_stones(int left) const { return stones_base + left; }
    int their_stones(int left) const { return stones_base + stones + 1 + left; }
    int own_caps(int left) const { return caps_base + left; }
    int their_caps(int left) const { return caps_base + caps + 1 + left; }
    int komi(Side perspective, int half_komi) const {
        return komi_base + (perspective == Side::second ? komi_buckets : 0) + std::clamp(half_komi, 0, komi_buckets - 1);
    }
};

int stones_left(const State& state, Side side) { return state.stones_left[index_of(side)]; }
int caps_left(const State& state, Side side) { return state.caps_left[index_of(side)]; }

template <class Add>
void reserve_inputs(const ReserveLayout& layout, int own_stones, int their_stones, int own_caps, int their_caps,
                    Add&& add) {
    add(layout.own_stones(own_stones));
    add(layout.their_stones(their_stones));
    add(layout.own_caps(own_caps));
    add(layout.their_caps(their_caps));
}

template <class Add>
void all_inputs(const State& state, Side perspective, Add&& add) {
    const int size = state.size;
    const Bitboard board = geometry(size).board;
    for (Bitboard rest = state.occupied() & board; rest; rest &= rest - 1) {
        const int square = std::countr_zero(rest);
        square_inputs(signature(state, square), board_index(square, size), size, perspective, add);
    }
    const ReserveLayout layout(size);
    const Side other = opponent(perspective);
    reserve_inputs(layout, stones_left(state, perspective), stones_left(state, other), caps_left(state, perspective),
                   caps_left(state, other), add);
    add(layout.komi(perspective, state.half_komi));
}

}  // namespace

int input_count(int size) { return ReserveLayout(size).komi_base + 2 * komi_buckets; }

int size_for_inputs(int inputs) {
    for (int size = min_size; size <= max_size; ++size)
        if (input_count(size) == inputs) return size;
    return 0;
}

void add_inputs(const State& state, Side perspective, FeatureList& out, int offset) {
    all_inputs(state, perspective, [&](int input) { out.add(input + offset, 1.0f); });
}

void sample_inputs(const State& state, FeatureList& out) {
    out.clear();
    const Side us = state.side_to_move();
    add_inputs(state, us, out, 0);
    add_inputs(state, opponent(us), out, input_count(state.size));
}

int transformed_input(int index, int size, int symmetry) {
    const int area = size * size;
    if (symmetry == 0 || index >= board_blocks * area) return index;
    const int block = index / area, cell = index % area;
    const int row = cell / size, column = cell % size, last = size - 1;
    int r = row, c = column;
    switch (symmetry) {
        case 1: r = column, c = last - row; break;
        case 2: r = last - row, c = last - column; break;
        case 3: r = last - column, c = row; break;
        case 4: c = last - column; break;
        case 5: r = last - row; break;
        case 6: r = column, c = row; break;
        default: r = last - column, c = last - row; break;
    }
    return block * area + r * size + c;
}

// ---------------------------------------------------------------------------------------------
// NetworkSet

std::shared_ptr<const NetworkSet> NetworkSet::builtin() {
    static const std::shared_ptr<const NetworkSet> set = [] {
        auto nets = std::make_shared<NetworkSet>();
        for (const auto& file : nets::embedded_files()) {
            // A shipped file that does not load is a build defect; tests check every one.
            if (file.name.ends_with(".nnue")) (void)nets->add_bytes(file.bytes, file.name);
        }
        return nets;
    }();
    return set;
}

Status NetworkSet::add_bytes(std::string_view bytes, std::string_view origin) {
    auto net = search::learning::parse_network(bytes);
    if (!net) return make_error(fmt::format("{}: {}", origin, net.error()));
    const int size = size_for_inputs(net->inputs());
    if (size == 0)
        return make_error(fmt::format("{}: {} inputs is no Tak board size's input count ({} for 6x6)", origin,
                                      net->inputs(), input_count(6)));
    auto quantised = QuantisedNetwork::from(*net);
    if (!quantised) return make_error(fmt::format("{}: {}", origin, quantised.error()));
    nets_[static_cast<std::size_t>(size)] = std::move(*quantised);
    descriptions_[static_cast<std::size_t>(size)] =
        fmt::format("{}x{}: {} ({} hidden units{})", size, size, origin, net->hidden(),
                    net->description.empty() ? "" : "; " + net->description);
    return success();
}

Status NetworkSet::add_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(fmt::format("cannot read the network file '{}'", path));
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return add_bytes(bytes, path);
}

std::string NetworkSet::describe() const {
    std::string text;
    for (const auto& description : descriptions_)
        if (!description.empty()) text += (text.empty() ? "" : "\n") + description;
    return text;
}

// ---------------------------------------------------------------------------------------------
// NetworkEvaluator

struct NetworkEvaluator::Cache {
    const QuantisedNetwork* net = nullptr;
    int size = 0;
    int half_komi = 0;
    std::array<std::uint16_t, square_count> signatures{};
    std::array<std::uint8_t, 2> stones{}, caps{};
    QuantisedNetwork::Accumulator accumulators[2];  // White's perspective, Black's
};

NetworkEvaluator::NetworkEvaluator() = default;
NetworkEvaluator::NetworkEvaluator(std::shared_ptr<const NetworkSet> nets) : nets_(std::move(nets)) {}
NetworkEvaluator::NetworkEvaluator(const NetworkEvaluator& other) : nets_(other.nets_) {}
NetworkEvaluator& NetworkEvaluator::operator=(const NetworkEvaluator& other) {
    nets_ = other.nets_;
    cache_.reset();
    return *this;
}
NetworkEvaluator::~NetworkEvaluator() = default;

namespace {

void refresh(const QuantisedNetwork& net, const State& state, QuantisedNetwork::Accumulator (&acc)[2]) {
    for (const Side p : {Side::first, Side::second}) {
        auto& a = acc[index_of(p)];
        net.reset(a);
        all_inputs(state, p, [&](int input) { net.add(a, input); });
    }
}

}  // namespace

double NetworkEvaluator::logit(const State& state) const {
    const QuantisedNetwork& net = *nets_->for_size(state.size);
    const int size = state.size;
    if (!cache_) cache_ = std::make_unique<Cache>();
    Cache& c = *cache_;
    const ReserveLayout layout(size);
    auto remember_reserves = [&] {
        for (int s = 0; s < 2; ++s) {
            c.stones[static_cast<std::size_t>(s)] = state.stones_left[s];
            c.caps[static_cast<std::size_t>(s)] = state.caps_left[s];
        }
    };
    if (c.net != &net || c.size != size || c.half_komi != state.half_komi) {
        // A new network, size or komi: start from an empty board with these reserves; the squares
        // are then added below like any change.
        for (const Side p : {Side::first, Side::second}) {
            auto& a = c.accumulators[index_of(p)];
            net.reset(a);
            reserve_inputs(layout, state.stones_left[index_of(p)], state.stones_left[1 - index_of(p)],
                           state.caps_left[index_of(p)], state.caps_left[1 - index_of(p)],
                           [&](int input) { net.add(a, input); });
            net.add(a, layout.komi(p, state.half_komi));
        }
        c.net = &net;
        c.size = size;
        c.half_komi = state.half_komi;
        c.signatures.fill(0);
        remember_reserves();
    }
    // Only the squares whose signature changed: remove what they showed, add what they show.
    for (Bitboard rest = geometry(size).board; rest; rest &= rest - 1) {
        const int square = std::countr_zero(rest);
        const std::uint16_t now = signature(state, square);
        std::uint16_t& before = c.signatures[static_cast<std::size_t>(square)];
        if (now == before) continue;
        const int cell = board_index(square, size);
        for (const Side p : {Side::first, Side::second}) {
            auto& a = c.accumulators[index_of(p)];
            square_inputs(before, cell, size, p, [&](int input) { net.remove(a, input); });
            square_inputs(now, cell, size, p, [&](int input) { net.add(a, input); });
        }
        before = now;
    }
    const bool reserves_changed = c.stones[0] != state.stones_left[0] || c.stones[1] != state.stones_left[1] ||
                                  c.caps[0] != state.caps_left[0] || c.caps[1] != state.caps_left[1];
    if (reserves_changed) {
        for (const Side p : {Side::first, Side::second}) {
            auto& a = c.accumulators[index_of(p)];
            const int me = index_of(p), them = 1 - me;
            reserve_inputs(layout, c.stones[static_cast<std::size_t>(me)], c.stones[static_cast<std::size_t>(them)],
                           c.caps[static_cast<std::size_t>(me)], c.caps[static_cast<std::size_t>(them)],
                           [&](int input) { net.remove(a, input); });
            reserve_inputs(layout, state.stones_left[me], state.stones_left[them], state.caps_left[me],
                           state.caps_left[them], [&](int input) { net.add(a, input); });
        }
        remember_reserves();
    }
    const int us = index_of(state.side_to_move());
    return net.logit(c.accumulators[us], c.accumulators[1 - us]);
}

int NetworkEvaluator::evaluate(const State& state) const {
    return static_cast<int>(std::lround(logit(state) * centiflats_per_logit));
}

double NetworkEvaluator::logit_from_scratch(const State& state) const {
    const QuantisedNetwork& net = *nets_->for_size(state.size);
    QuantisedNetwork::Accumulator acc[2];
    refresh(net, state, acc);
    const int us = index_of(state.side_to_move());
    return net.logit(acc[us], acc[1 - us]);
}

}  // namespace bge::tak::network
