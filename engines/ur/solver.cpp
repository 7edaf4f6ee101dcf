#include "engines/ur/solver.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>

#include <fmt/format.h>

namespace bge::ur {

namespace {

constexpr int shared_first = 4;  // path indices 0-3 are always a side's own

// The packing of one path shape (14 tiles for Finkel, 16 for Masters and Blitz). Shared tiles are
// numbered by "slot", the mover's path index minus 4; the opponent's pieces on them are turned into
// the mover's slot order by `to_slots` (the Masters path crosses the ends in opposite directions).
struct Geometry {
    int path_length = 0;
    int shared_count = 0;  // 8 or 12
    std::size_t codes = 1;  // 3^shared_count
    std::vector<std::uint32_t> ternary;       // slot mask -> sum of 3^i over its bits
    std::vector<std::uint16_t> mover, other;  // ternary code -> slot masks
    std::vector<std::uint16_t> to_slots;      // opponent's own shared bits -> slot mask (an involution)
    std::array<std::uint8_t, 64> rank{};      // private masks in order of piece count, then value
    std::array<std::uint8_t, 64> unrank{};
    std::array<std::uint32_t, 8> fitting{};  // private masks with at most c pieces (c = 0..7)
    std::array<int, max_path_length> opponent_index{};  // mover index -> opponent's index of that tile, or -1

    explicit Geometry(Ruleset ruleset) {
        path_length = traits_of(ruleset).path_length;
        shared_count = path_length == 14 ? 8 : 12;
        const int private_count = path_length == 14 ? 6 : 4;
        for (int i = 0; i < shared_count; ++i) codes *= 3;
        const unsigned masks = 1u << shared_count;
        ternary.assign(masks, 0);
        to_slots.assign(masks, 0);
        for (int index = 0; index < path_length; ++index) {
            const int tile = path_tile(ruleset, 0, index);
            opponent_index[index] = path_index_of(ruleset, 1, tile);
        }
        for (unsigned mask = 0; mask < masks; ++mask) {
            unsigned code = 0, power = 1;
            for (int bit = 0; bit < shared_count; ++bit, power *= 3) {
                if (!(mask & (1u << bit))) continue;
                code += power;
                to_slots[mask] |= static_cast<std::uint16_t>(1u << (opponent_index[bit + shared_first] - shared_first));
            }
            ternary[mask] = code;
        }
        mover.assign(codes, 0);
        other.assign(codes, 0);
        for (std::size_t code = 0; code < codes; ++code) {
            std::size_t rest = code;
            for (int bit = 0; bit < shared_count; ++bit, rest /= 3) {
                if (rest % 3 == 1) mover[code] |= static_cast<std::uint16_t>(1u << bit);
                if (rest % 3 == 2) other[code] |= static_cast<std::uint16_t>(1u << bit);
            }
        }
        int next = 0;
        const unsigned private_masks = 1u << private_count;
        for (int count = 0; count <= private_count; ++count)
            for (unsigned mask = 0; mask < private_masks; ++mask)
                if (std::popcount(mask) == count) {
                    rank[mask] = static_cast<std::uint8_t>(next);
                    unrank[next++] = static_cast<std::uint8_t>(mask);
                }
        for (int c = 0; c < 8; ++c) {
            std::uint32_t total = 0;
            for (unsigned mask = 0; mask < private_masks; ++mask) total += std::popcount(mask) <= c ? 1 : 0;
            fitting[c] = total;
        }
    }
    std::uint32_t fit(int c) const { return c < 0 ? 0 : fitting[std::min(c, 7)]; }
    // Finkel's private indices are 0-3 and 12-13; Masters' 0-3.
    unsigned private_of(unsigned mask) const {
        return path_length == 14 ? (mask & 0xFu) | ((mask >> 8) & 0x30u) : mask & 0xFu;
    }
    unsigned shared_of(unsigned mask) const { return (mask >> shared_first) & ((1u << shared_count) - 1); }
    unsigned expand(unsigned private_bits, unsigned shared_bits) const {
        const unsigned low = (private_bits & 0xFu) | (shared_bits << shared_first);
        return path_length == 14 ? low | ((private_bits & 0x30u) << 8) : low;
    }
    // The code of the shared tiles: the mover's bits in slot order, the opponent's own bits.
    std::size_t code(unsigned mover_shared, unsigned opponent_own_shared) const {
        return ternary[mover_shared] + 2u * ternary[to_slots[opponent_own_shared]];
    }
};

const Geometry& geometry(Ruleset ruleset) {
    static const Geometry finkel(Ruleset::finkel);
    static const Geometry masters(Ruleset::masters);
    return traits_of(ruleset).path_length == 14 ? finkel : masters;
}

constexpr char magic[8] = {'B', 'G', 'E', 'U', 'R', 'T', 'B', '1'};

}  // namespace

SolverTable::SolverTable(Ruleset ruleset, int pieces)
    : ruleset_(ruleset), pieces_(pieces), path_length_(traits_of(ruleset).path_length) {
    const Geometry& g = geometry(ruleset);
    codes_ = g.codes;
    const int layers = pieces * pieces;
    shared_offset_.assign(static_cast<std::size_t>(layers) * codes_, 0);
    layer_offset_.assign(layers + 1, 0);
    std::uint64_t total = 0;
    for (int mover_scored = 0; mover_scored < pieces; ++mover_scored)
        for (int opponent_scored = 0; opponent_scored < pieces; ++opponent_scored) {
            const int layer = layer_of(mover_scored, opponent_scored);
            layer_offset_[layer] = total;
            std::uint64_t within = 0;
            for (std::size_t code = 0; code < codes_; ++code) {
                shared_offset_[static_cast<std::size_t>(layer) * codes_ + code] = static_cast<std::uint32_t>(within);
                within += std::uint64_t{g.fit(pieces - mover_scored - std::popcount(unsigned{g.mover[code]}))} *
                          g.fit(pieces - opponent_scored - std::popcount(unsigned{g.other[code]}));
            }
            total += within;
        }
    layer_offset_[layers] = total;
    values_.assign(total, 0.5f);
}

std::uint64_t SolverTable::index(unsigned mover_mask, unsigned opponent_mask, int mover_scored,
                                 int opponent_scored) const {
    const Geometry& g = geometry(ruleset_);
    const unsigned mover_shared = g.shared_of(mover_mask), other_shared = g.shared_of(opponent_mask);
    const int layer = layer_of(mover_scored, opponent_scored);
    const std::size_t code = g.code(mover_shared, other_shared);
    const std::uint32_t opponent_fit = g.fit(pieces_ - opponent_scored - std::popcount(other_shared));
    return layer_offset_[layer] + shared_offset_[static_cast<std::size_t>(layer) * codes_ + code] +
           std::uint64_t{g.rank[g.private_of(mover_mask)]} * opponent_fit + g.rank[g.private_of(opponent_mask)];
}

std::uint64_t SolverTable::layer_begin(int mover_scored, int opponent_scored) const {
    return layer_offset_[layer_of(mover_scored, opponent_scored)];
}
std::uint64_t SolverTable::layer_end(int mover_scored, int opponent_scored) const {
    return layer_offset_[layer_of(mover_scored, opponent_scored) + 1];
}

template <class Visit>
void SolverTable::for_each_in_layer(int mover_scored, int opponent_scored, Visit&& visit) const {
    const Geometry& g = geometry(ruleset_);
    // Backwards: pieces further along come first, so most successors are already updated in
    // the same sweep (Gauss-Seidel), which roughly halves the sweeps needed.
    std::uint64_t index = layer_end(mover_scored, opponent_scored);
    for (std::size_t code = codes_; code-- > 0;) {
        const unsigned mover_shared = g.mover[code], other_slots = g.other[code];
        const unsigned other_shared = g.to_slots[other_slots];  // the involution: slots -> own bits
        const std::uint32_t mover_fit = g.fit(pieces_ - mover_scored - std::popcount(mover_shared));
        const std::uint32_t other_fit = g.fit(pieces_ - opponent_scored - std::popcount(other_slots));
        for (std::uint32_t a = mover_fit; a-- > 0;) {
            const unsigned mover_mask = g.expand(g.unrank[a], mover_shared);
            for (std::uint32_t b = other_fit; b-- > 0;)
                visit(--index, mover_mask, g.expand(g.unrank[b], other_shared));
        }
    }
}

double SolverTable::win_probability(const State& state) const {
    const int mover = index_of(state.to_move);
    if (const Outcome o = outcome(state); o.is_over()) return o.winner == state.to_move ? 1.0 : 0.0;
    return value(path_mask(state, mover), path_mask(state, 1 - mover), state.scored[mover], state.scored[1 - mover]);
}

double SolverTable::move_value(const State& decision, Move move) const {
    State next = decision;
    play(next, move);
    const double p = win_probability(next);
    return next.to_move == decision.to_move ? p : 1.0 - p;
}

Status SolverTable::save(const std::string& path) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return make_error(fmt::format("cannot write {}", path));
    const std::uint32_t header[2] = {static_cast<std::uint32_t>(ruleset_), static_cast<std::uint32_t>(pieces_)};
    const std::uint64_t count = values_.size();
    out.write(magic, sizeof magic);
    out.write(reinterpret_cast<const char*>(header), sizeof header);
    out.write(reinterpret_cast<const char*>(&count), sizeof count);
    out.write(reinterpret_cast<const char*>(values_.data()), static_cast<std::streamsize>(count * sizeof(float)));
    out.flush();
    if (!out) return make_error(fmt::format("writing {} failed", path));
    return success();
}

Expected<SolverTable> SolverTable::load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(fmt::format("cannot open table {}", path));
    char head[8];
    std::uint32_t header[2];
    std::uint64_t count = 0;
    in.read(head, sizeof head);
    in.read(reinterpret_cast<char*>(header), sizeof header);
    in.read(reinterpret_cast<char*>(&count), sizeof count);
    if (!in || !std::equal(head, head + 8, magic))
        return make_error(fmt::format("{} is not an ur solver table (bad header)", path));
    if (header[0] > 2) return make_error(fmt::format("{}: unknown ruleset {}", path, header[0]));
    if (header[1] < 1 || header[1] > 7) return make_error(fmt::format("{}: bad piece count {}", path, header[1]));
    const auto ruleset = static_cast<Ruleset>(header[0]);
    SolverTable table(ruleset, static_cast<int>(header[1]));
    if (count != table.size())
        return make_error(fmt::format("{}: {} states, but {} with {} pieces needs {}", path, count,
                                      ruleset_name(ruleset), header[1], table.size()));
    in.read(reinterpret_cast<char*>(table.values_.data()), static_cast<std::streamsize>(count * sizeof(float)));
    if (in.gcount() != static_cast<std::streamsize>(count * sizeof(float)))
        return make_error(
            fmt::format("{}: truncated ({} of {} bytes of values)", path, in.gcount(), count * sizeof(float)));
    if (in.peek() != std::char_traits<char>::eof())
        return make_error(fmt::format("{}: trailing bytes after the table", path));
    for (float v : table.values_)
        if (!(v >= 0.0f && v <= 1.0f)) return make_error(fmt::format("{}: a value outside [0, 1]", path));
    return table;
}

SolverTable solve(const SolveSettings& settings, SolveReport& report) {
    const int pieces = settings.pieces;
    const Ruleset ruleset = settings.ruleset;
    SolverTable table(ruleset, pieces);
    const Geometry& g = geometry(ruleset);
    const RulesetTraits traits = traits_of(ruleset);
    const int length = g.path_length;
    std::vector<float>& value = table.values();
    report.states = table.size();
    auto log = [&](const std::string& line) {
        if (settings.log) settings.log(line);
    };
    log(fmt::format("solving {} with {} pieces: {} states ({} MB of values)", ruleset_name(ruleset), pieces,
                    table.size(), table.size() * sizeof(float) >> 20));
    constexpr int max_sweeps = 100000;  // a safety net: convergence takes tens of sweeps
    // The dice: a 0 always passes; the other numbers pass only when no piece can move.
    double zero_probability = 0;
    std::vector<std::pair<int, double>> moving_rolls;
    for (const Roll& roll : roll_outcomes(ruleset)) {
        if (roll.number == 0)
            zero_probability = roll.probability;
        else
            moving_rolls.emplace_back(roll.number, roll.probability);
    }
    unsigned rosette_bits = 0, safe_bits = 0;
    for (int index = 0; index < length; ++index)
        if (is_rosette(path_tile(ruleset, 0, index))) {
            rosette_bits |= 1u << index;
            if (traits.rosettes_safe && g.opponent_index[index] >= 0) safe_bits |= 1u << index;
        }
    const auto start = std::chrono::steady_clock::now();

    // The Bellman update of a state with the mover (mask m, ms scored) against (o, os), split
    // into the value of the rolls that move a piece and the probability of having to pass.
    auto moving_part = [&](unsigned m, unsigned o, int ms, int os, double& pass_probability) -> double {
        const int waiting = pieces - ms - std::popcount(m);
        pass_probability = zero_probability;
        double total = 0;
        for (const auto& [roll, probability] : moving_rolls) {
            double best = -1.0;
            auto consider = [&](unsigned from_bit, int target) {
                if (target == length) {
                    const double v = ms + 1 == pieces ? 1.0 : 1.0 - value[table.index(o, m & ~from_bit, os, ms + 1)];
                    best = std::max(best, v);
                    return;
                }
                const unsigned to_bit = 1u << target;
                if (m & to_bit) return;
                unsigned opponent = o;
                bool captured = false;
                if (const int there = g.opponent_index[target]; there >= 0 && (o & (1u << there))) {
                    if (safe_bits & to_bit) return;
                    opponent &= ~(1u << there);
                    captured = true;
                }
                const unsigned mover = (m & ~from_bit) | to_bit;
                const bool again = (rosette_bits & to_bit) || (captured && traits.capture_gives_roll);
                const double v = again ? value[table.index(mover, opponent, ms, os)]
                                       : 1.0 - value[table.index(opponent, mover, os, ms)];
                best = std::max(best, v);
            };
            if (waiting > 0) consider(0, roll - 1);
            for (unsigned rest = m; rest; rest &= rest - 1) {
                const int from = std::countr_zero(rest);
                if (from + roll <= length) consider(1u << from, from + roll);
            }
            if (best < 0)
                pass_probability += probability;
            else
                total += probability * best;
        }
        return total;
    };

    for (int sum = 2 * (pieces - 1); sum >= 0; --sum) {
        for (int a = std::max(0, sum - (pieces - 1)); a <= sum / 2; ++a) {
            const int b = sum - a;
            std::vector<std::pair<int, int>> group = {{a, b}};
            if (a != b) group.push_back({b, a});
            std::uint64_t group_states = 0;
            for (auto [x, y] : group) group_states += table.layer_end(x, y) - table.layer_begin(x, y);
            int sweeps = 0;
            double max_change = 1.0;
            // A position s and its pass successor t (the same pieces, the other side to roll) are
            // updated together, solving the two-state pass loop exactly:
            //   V(s) = Ps (1 - V(t)) + Rs,  V(t) = Pt (1 - V(s)) + Rt.
            // Waiting for an exact roll to bear off no longer costs a sweep per pass.
            // Values are floats: a tolerance below their resolution near 1 (6e-8) could never be met.
            const double tolerance = std::max(settings.tolerance, 1e-7);
            while (max_change >= tolerance && sweeps < max_sweeps) {
                max_change = 0;
                std::uint64_t updates = 0;
                table.for_each_in_layer(a, b, [&](std::uint64_t i, unsigned m, unsigned o) {
                    const std::uint64_t j = table.index(o, m, b, a);
                    double ps = 0, pt = 0;
                    const double rs = moving_part(m, o, a, b, ps);
                    const double rt = moving_part(o, m, b, a, pt);
                    const double denominator = 1.0 - ps * pt;
                    const double vs = denominator > 1e-12 ? (ps * (1.0 - pt - rt) + rs) / denominator : 0.5;
                    const double vt = pt * (1.0 - vs) + rt;
                    max_change = std::max({max_change, double{std::abs(static_cast<float>(vs) - value[i])},
                                           double{std::abs(static_cast<float>(vt) - value[j])}});
                    value[i] = static_cast<float>(vs);
                    value[j] = static_cast<float>(vt);
                    updates += 2;
                });
                ++sweeps;
                report.state_updates += updates;
            }
            report.sweeps += sweeps;
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            log(fmt::format("layers ({},{}){}: {} states, {} sweeps, {:.1f} s elapsed", a, b,
                            a != b ? fmt::format(" and ({},{})", b, a) : std::string(), group_states, sweeps, seconds));
        }
    }
    report.light_win_probability = table.value(0, 0, 0, 0);
    return table;
}

}  // namespace bge::ur
