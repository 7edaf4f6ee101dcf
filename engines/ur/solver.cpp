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

// Finkel path indices 0-3 and 12-13 are a side's own tiles ("private"); 4-11 are the middle row.
constexpr unsigned private_of(unsigned mask) { return (mask & 0xFu) | ((mask >> 8) & 0x30u); }
constexpr unsigned shared_of(unsigned mask) { return (mask >> 4) & 0xFFu; }
constexpr unsigned expand(unsigned private_bits, unsigned shared_bits) {
    return (private_bits & 0xFu) | (shared_bits << 4) | ((private_bits & 0x30u) << 8);
}
constexpr int ternary_count = 6561;  // 3^8 middle-row fillings
constexpr unsigned rosette_path_bits = (1u << 3) | (1u << 7) | (1u << 13);
constexpr int safe_rosette_index = 7;  // B4

struct Tables {
    std::array<std::uint16_t, 256> ternary{};         // mask -> sum of 3^i over its bits
    std::array<std::uint8_t, ternary_count> mover{};  // ternary code -> middle-row masks
    std::array<std::uint8_t, ternary_count> other{};
    std::array<std::uint8_t, 64> rank{};  // private masks in order of piece count, then value
    std::array<std::uint8_t, 64> unrank{};
    std::array<std::uint32_t, 8> fitting{};  // private masks with at most c pieces (c = 0..7)

    Tables() {
        for (unsigned mask = 0; mask < 256; ++mask) {
            unsigned code = 0, power = 1;
            for (int bit = 0; bit < 8; ++bit, power *= 3)
                if (mask & (1u << bit)) code += power;
            ternary[mask] = static_cast<std::uint16_t>(code);
        }
        for (int code = 0; code < ternary_count; ++code) {
            int rest = code;
            for (int bit = 0; bit < 8; ++bit, rest /= 3) {
                if (rest % 3 == 1) mover[code] |= static_cast<std::uint8_t>(1u << bit);
                if (rest % 3 == 2) other[code] |= static_cast<std::uint8_t>(1u << bit);
            }
        }
        int next = 0;
        for (int count = 0; count <= 6; ++count) {
            for (unsigned mask = 0; mask < 64; ++mask)
                if (std::popcount(mask) == count) {
                    rank[mask] = static_cast<std::uint8_t>(next);
                    unrank[next++] = static_cast<std::uint8_t>(mask);
                }
        }
        for (int c = 0; c < 8; ++c) {
            std::uint32_t total = 0;
            for (unsigned mask = 0; mask < 64; ++mask) total += std::popcount(mask) <= c ? 1 : 0;
            fitting[c] = total;
        }
    }
    std::uint32_t fit(int c) const { return c < 0 ? 0 : fitting[std::min(c, 7)]; }
    unsigned code(unsigned mover_shared, unsigned other_shared) const {
        return ternary[mover_shared] + 2u * ternary[other_shared];
    }
};

const Tables& tables() {
    static const Tables instance;
    return instance;
}

constexpr char magic[8] = {'B', 'G', 'E', 'U', 'R', 'T', 'B', '1'};

}  // namespace

FinkelTable::FinkelTable(int pieces) : pieces_(pieces) {
    const Tables& t = tables();
    const int layers = pieces * pieces;
    shared_offset_.assign(static_cast<std::size_t>(layers) * ternary_count, 0);
    layer_offset_.assign(layers + 1, 0);
    std::uint64_t total = 0;
    for (int mover_scored = 0; mover_scored < pieces; ++mover_scored)
        for (int opponent_scored = 0; opponent_scored < pieces; ++opponent_scored) {
            const int layer = layer_of(mover_scored, opponent_scored);
            layer_offset_[layer] = total;
            std::uint64_t within = 0;
            for (int code = 0; code < ternary_count; ++code) {
                shared_offset_[static_cast<std::size_t>(layer) * ternary_count + code] =
                    static_cast<std::uint32_t>(within);
                within += std::uint64_t{t.fit(pieces - mover_scored - std::popcount(unsigned{t.mover[code]}))} *
                          t.fit(pieces - opponent_scored - std::popcount(unsigned{t.other[code]}));
            }
            total += within;
        }
    layer_offset_[layers] = total;
    values_.assign(total, 0.5f);
}

std::uint64_t FinkelTable::index(unsigned mover_mask, unsigned opponent_mask, int mover_scored,
                                 int opponent_scored) const {
    const Tables& t = tables();
    const unsigned mover_shared = shared_of(mover_mask), other_shared = shared_of(opponent_mask);
    const int layer = layer_of(mover_scored, opponent_scored);
    const unsigned code = t.code(mover_shared, other_shared);
    const std::uint32_t opponent_fit = t.fit(pieces_ - opponent_scored - std::popcount(other_shared));
    return layer_offset_[layer] + shared_offset_[static_cast<std::size_t>(layer) * ternary_count + code] +
           std::uint64_t{t.rank[private_of(mover_mask)]} * opponent_fit + t.rank[private_of(opponent_mask)];
}

std::uint64_t FinkelTable::layer_begin(int mover_scored, int opponent_scored) const {
    return layer_offset_[layer_of(mover_scored, opponent_scored)];
}
std::uint64_t FinkelTable::layer_end(int mover_scored, int opponent_scored) const {
    return layer_offset_[layer_of(mover_scored, opponent_scored) + 1];
}

template <class Visit>
void FinkelTable::for_each_in_layer(int mover_scored, int opponent_scored, Visit&& visit) const {
    const Tables& t = tables();
    // Backwards: pieces further along come first, so most successors are already updated in
    // the same sweep (Gauss-Seidel), which roughly halves the sweeps needed.
    std::uint64_t index = layer_end(mover_scored, opponent_scored);
    for (int code = ternary_count - 1; code >= 0; --code) {
        const unsigned mover_shared = t.mover[code], other_shared = t.other[code];
        const std::uint32_t mover_fit = t.fit(pieces_ - mover_scored - std::popcount(mover_shared));
        const std::uint32_t other_fit = t.fit(pieces_ - opponent_scored - std::popcount(other_shared));
        for (std::uint32_t a = mover_fit; a-- > 0;) {
            const unsigned mover_mask = expand(t.unrank[a], mover_shared);
            for (std::uint32_t b = other_fit; b-- > 0;) visit(--index, mover_mask, expand(t.unrank[b], other_shared));
        }
    }
}

unsigned FinkelTable::path_mask(const State& state, int side) {
    unsigned mask = 0;
    for (int i = 0; i < path_length; ++i)
        if (state.tiles[side] & tile_bit(path_tile(Ruleset::finkel, side, i))) mask |= 1u << i;
    return mask;
}

double FinkelTable::win_probability(const State& state) const {
    const int mover = index_of(state.to_move);
    if (const Outcome o = outcome(state); o.is_over()) return o.winner == state.to_move ? 1.0 : 0.0;
    return value(path_mask(state, mover), path_mask(state, 1 - mover), state.scored[mover], state.scored[1 - mover]);
}

Status FinkelTable::save(const std::string& path) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return make_error(fmt::format("cannot write {}", path));
    const std::uint32_t header[2] = {0, static_cast<std::uint32_t>(pieces_)};  // ruleset 0 = finkel
    const std::uint64_t count = values_.size();
    out.write(magic, sizeof magic);
    out.write(reinterpret_cast<const char*>(header), sizeof header);
    out.write(reinterpret_cast<const char*>(&count), sizeof count);
    out.write(reinterpret_cast<const char*>(values_.data()), static_cast<std::streamsize>(count * sizeof(float)));
    out.flush();
    if (!out) return make_error(fmt::format("writing {} failed", path));
    return success();
}

Expected<FinkelTable> FinkelTable::load(const std::string& path) {
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
    if (header[0] != 0) return make_error(fmt::format("{}: ruleset {} is not finkel", path, header[0]));
    if (header[1] < 1 || header[1] > 7) return make_error(fmt::format("{}: bad piece count {}", path, header[1]));
    FinkelTable table(static_cast<int>(header[1]));
    if (count != table.size())
        return make_error(fmt::format("{}: {} states, but {} pieces need {}", path, count, header[1], table.size()));
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

FinkelTable solve_finkel(const SolveSettings& settings, SolveReport& report) {
    const int pieces = settings.pieces;
    FinkelTable table(pieces);
    std::vector<float>& value = table.values();
    report.states = table.size();
    auto log = [&](const std::string& line) {
        if (settings.log) settings.log(line);
    };
    log(fmt::format("solving finkel with {} pieces: {} states ({} MB of values)", pieces, table.size(),
                    table.size() * sizeof(float) >> 20));
    constexpr int max_sweeps = 100000;  // a safety net: convergence takes tens of sweeps
    constexpr double roll_probability[5] = {1.0 / 16, 4.0 / 16, 6.0 / 16, 4.0 / 16, 1.0 / 16};
    const auto start = std::chrono::steady_clock::now();

    // The Bellman update of a state with the mover (mask m, ms scored) against (o, os), split
    // into the value of the rolls that move a piece and the probability of having to pass.
    auto moving_part = [&](unsigned m, unsigned o, int ms, int os, double& pass_probability) -> double {
        const int waiting = pieces - ms - std::popcount(m);
        pass_probability = roll_probability[0];
        double total = 0;
        for (int roll = 1; roll <= 4; ++roll) {
            double best = -1.0;
            auto consider = [&](unsigned from_bit, int target) {
                if (target == FinkelTable::path_length) {
                    const double v = ms + 1 == pieces ? 1.0 : 1.0 - value[table.index(o, m & ~from_bit, os, ms + 1)];
                    best = std::max(best, v);
                    return;
                }
                const unsigned to_bit = 1u << target;
                if (m & to_bit) return;
                unsigned opponent = o;
                if (target >= 4 && target <= 11 && (o & to_bit)) {
                    if (target == safe_rosette_index) return;
                    opponent &= ~to_bit;
                }
                const unsigned mover = (m & ~from_bit) | to_bit;
                const double v = (rosette_path_bits & to_bit) ? value[table.index(mover, opponent, ms, os)]
                                                              : 1.0 - value[table.index(opponent, mover, os, ms)];
                best = std::max(best, v);
            };
            if (waiting > 0) consider(0, roll - 1);
            for (unsigned rest = m; rest; rest &= rest - 1) {
                const int from = std::countr_zero(rest);
                if (from + roll <= FinkelTable::path_length) consider(1u << from, from + roll);
            }
            if (best < 0)
                pass_probability += roll_probability[roll];
            else
                total += roll_probability[roll] * best;
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
