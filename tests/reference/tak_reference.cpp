// Independent, deliberately simple reference implementation of Tak.
// See tak_reference.hpp. Naive representation: each square is a vector of
// pieces, bottom -> top. Only the top piece of a stack may be a wall or a
// capstone; everything below it is a flat.

#include "tak_reference.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tak_reference {
namespace {

enum class Kind { Flat, Wall, Cap };

struct Piece {
    int color;  // 1 = white, 2 = black
    Kind kind;
};

using Stack = std::vector<Piece>;  // bottom -> top

struct Position {
    int n = 0;
    // board[rank][file], rank 0 = rank 1 (bottom), file 0 = file a (left).
    std::vector<std::vector<Stack>> board;
    int to_move = 1;                // 1 or 2
    std::uint64_t move_number = 1;  // >= 1
};

int stones_total(int n) {
    switch (n) {
        case 3:
            return 10;
        case 4:
            return 15;
        case 5:
            return 21;
        case 6:
            return 30;
        case 7:
            return 40;
        case 8:
            return 50;
        default:
            return 0;
    }
}

int caps_total(int n) {
    switch (n) {
        case 3:
            return 0;
        case 4:
            return 0;
        case 5:
            return 1;
        case 6:
            return 1;
        case 7:
            return 2;
        case 8:
            return 2;
        default:
            return 0;
    }
}

int stones_used(const Position& p, int color) {
    int used = 0;
    for (const auto& row : p.board)
        for (const auto& st : row)
            for (const Piece& pc : st)
                if (pc.color == color && pc.kind != Kind::Cap) ++used;
    return used;
}

int caps_used(const Position& p, int color) {
    int used = 0;
    for (const auto& row : p.board)
        for (const auto& st : row)
            for (const Piece& pc : st)
                if (pc.color == color && pc.kind == Kind::Cap) ++used;
    return used;
}

int stones_left(const Position& p, int color) { return stones_total(p.n) - stones_used(p, color); }
int caps_left(const Position& p, int color) { return caps_total(p.n) - caps_used(p, color); }

std::uint64_t ply_of(const Position& p) { return 2 * (p.move_number - 1) + static_cast<std::uint64_t>(p.to_move - 1); }

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument(what); }

// ---------------------------------------------------------------- TPS parsing

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

bool all_digits(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

// Parses a cell and appends the squares it describes to `row`.
void parse_cell(const std::string& cell, std::vector<Stack>& row, int n, const std::string& tps) {
    if (cell.empty()) bad("TPS: empty cell in '" + tps + "'");
    if (cell[0] == 'x') {
        int count = 1;
        if (cell.size() > 1) {
            std::string digits = cell.substr(1);
            if (!all_digits(digits) || digits.size() > 2) bad("TPS: bad empty-cell run '" + cell + "'");
            count = std::stoi(digits);
            if (count < 1) bad("TPS: bad empty-cell run '" + cell + "'");
        }
        if (static_cast<int>(row.size()) + count > n) bad("TPS: too many cells in a row in '" + tps + "'");
        for (int i = 0; i < count; ++i) row.emplace_back();
        return;
    }
    Stack st;
    for (std::size_t i = 0; i < cell.size(); ++i) {
        char c = cell[i];
        if (c == '1' || c == '2') {
            st.push_back(Piece{c - '0', Kind::Flat});
        } else if (c == 'S' || c == 'C') {
            if (i + 1 != cell.size()) bad("TPS: S/C must end a stack in cell '" + cell + "'");
            if (st.empty()) bad("TPS: S/C without a piece in cell '" + cell + "'");
            st.back().kind = (c == 'S') ? Kind::Wall : Kind::Cap;
        } else {
            bad(std::string("TPS: bad character '") + c + "' in cell '" + cell + "'");
        }
    }
    if (static_cast<int>(row.size()) + 1 > n) bad("TPS: too many cells in a row in '" + tps + "'");
    row.push_back(st);
}

Position parse_tps(const std::string& tps) {
    // Exactly three space-separated fields (leading/trailing blanks tolerated).
    std::vector<std::string> fields;
    {
        std::string cur;
        for (char c : tps) {
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                if (!cur.empty()) fields.push_back(cur);
                cur.clear();
            } else {
                cur += c;
            }
        }
        if (!cur.empty()) fields.push_back(cur);
    }
    if (fields.size() != 3) bad("TPS: expected 3 fields in '" + tps + "'");

    Position p;
    std::vector<std::string> rows = split(fields[0], '/');
    p.n = static_cast<int>(rows.size());
    if (p.n < 3 || p.n > 8) bad("TPS: board size must be 3..8 in '" + tps + "'");
    p.board.assign(p.n, std::vector<Stack>());
    for (int i = 0; i < p.n; ++i) {
        std::vector<Stack> row;
        for (const std::string& cell : split(rows[i], ',')) parse_cell(cell, row, p.n, tps);
        if (static_cast<int>(row.size()) != p.n) bad("TPS: wrong number of cells in a row in '" + tps + "'");
        // rows are listed from the top rank down
        p.board[p.n - 1 - i] = row;
    }

    if (fields[1] == "1")
        p.to_move = 1;
    else if (fields[1] == "2")
        p.to_move = 2;
    else
        bad("TPS: bad player '" + fields[1] + "'");

    if (!all_digits(fields[2]) || fields[2].size() > 15) bad("TPS: bad move number '" + fields[2] + "'");
    p.move_number = std::stoull(fields[2]);
    if (p.move_number < 1) bad("TPS: bad move number '" + fields[2] + "'");

    for (int color = 1; color <= 2; ++color) {
        if (stones_left(p, color) < 0) bad("TPS: too many stones for player " + std::to_string(color));
        if (caps_left(p, color) < 0) bad("TPS: too many capstones for player " + std::to_string(color));
    }
    return p;
}

// --------------------------------------------------------------- TPS printing

std::string stack_text(const Stack& st) {
    std::string s;
    for (const Piece& pc : st) s += static_cast<char>('0' + pc.color);
    if (st.back().kind == Kind::Wall) s += 'S';
    if (st.back().kind == Kind::Cap) s += 'C';
    return s;
}

std::string print_tps(const Position& p) {
    std::string out;
    for (int r = p.n - 1; r >= 0; --r) {
        std::vector<std::string> cells;
        int empties = 0;
        for (int f = 0; f < p.n; ++f) {
            const Stack& st = p.board[r][f];
            if (st.empty()) {
                ++empties;
                continue;
            }
            if (empties > 0) {
                cells.push_back(empties == 1 ? "x" : "x" + std::to_string(empties));
                empties = 0;
            }
            cells.push_back(stack_text(st));
        }
        if (empties > 0) cells.push_back(empties == 1 ? "x" : "x" + std::to_string(empties));
        for (std::size_t i = 0; i < cells.size(); ++i) {
            if (i > 0) out += ',';
            out += cells[i];
        }
        if (r > 0) out += '/';
    }
    out += ' ';
    out += std::to_string(p.to_move);
    out += ' ';
    out += std::to_string(p.move_number);
    return out;
}

// ---------------------------------------------------------------------- moves

struct Move {
    bool is_spread = false;
    int file = 0, rank = 0;
    // placement
    Kind kind = Kind::Flat;
    int color = 0;  // colour of the placed piece
    // spread
    char dir = '+';
    std::vector<int> drops;
};

std::string square_name(int file, int rank) {
    std::string s;
    s += static_cast<char>('a' + file);
    s += static_cast<char>('1' + rank);
    return s;
}

void dir_delta(char dir, int& df, int& dr) {
    df = 0;
    dr = 0;
    if (dir == '+') dr = 1;
    if (dir == '-') dr = -1;
    if (dir == '>') df = 1;
    if (dir == '<') df = -1;
}

std::string move_ptn(const Move& m) {
    std::string s;
    if (!m.is_spread) {
        if (m.kind == Kind::Wall) s += 'S';
        if (m.kind == Kind::Cap) s += 'C';
        s += square_name(m.file, m.rank);
        return s;
    }
    int count = 0;
    for (int d : m.drops) count += d;
    if (count != 1) s += std::to_string(count);
    s += square_name(m.file, m.rank);
    s += m.dir;
    if (m.drops.size() > 1)
        for (int d : m.drops) s += std::to_string(d);
    return s;
}

bool on_board(const Position& p, int f, int r) { return f >= 0 && f < p.n && r >= 0 && r < p.n; }

// Enumerate all drop sequences for carrying `remaining` pieces further in
// direction (df,dr), where the current square is (f,r). top_is_cap says whether
// the topmost carried piece (the last one to be dropped) is a capstone.
void gen_drops(const Position& p, int f, int r, int df, int dr, int remaining, bool top_is_cap, std::vector<int>& drops,
               const Move& base, std::vector<Move>& out) {
    int nf = f + df, nr = r + dr;
    if (!on_board(p, nf, nr)) return;
    const Stack& target = p.board[nr][nf];
    Kind target_top = target.empty() ? Kind::Flat : target.back().kind;
    if (!target.empty() && target_top == Kind::Cap) return;
    if (!target.empty() && target_top == Kind::Wall) {
        // Only a capstone arriving alone as the very last piece may flatten it.
        if (remaining == 1 && top_is_cap) {
            drops.push_back(1);
            Move m = base;
            m.drops = drops;
            out.push_back(m);
            drops.pop_back();
        }
        return;
    }
    for (int d = 1; d <= remaining; ++d) {
        drops.push_back(d);
        if (d == remaining) {
            Move m = base;
            m.drops = drops;
            out.push_back(m);
        } else {
            gen_drops(p, nf, nr, df, dr, remaining - d, top_is_cap, drops, base, out);
        }
        drops.pop_back();
    }
}

std::vector<Move> generate(const Position& p) {
    std::vector<Move> out;
    const int me = p.to_move;
    const int opp = 3 - me;

    if (ply_of(p) < 2) {
        // Opening: place a flat of the opponent's colour on an empty square.
        if (stones_left(p, opp) > 0) {
            for (int r = 0; r < p.n; ++r)
                for (int f = 0; f < p.n; ++f)
                    if (p.board[r][f].empty()) {
                        Move m;
                        m.file = f;
                        m.rank = r;
                        m.kind = Kind::Flat;
                        m.color = opp;
                        out.push_back(m);
                    }
        }
        return out;
    }

    const bool have_stone = stones_left(p, me) > 0;
    const bool have_cap = caps_left(p, me) > 0;
    for (int r = 0; r < p.n; ++r) {
        for (int f = 0; f < p.n; ++f) {
            const Stack& st = p.board[r][f];
            if (st.empty()) {
                Move m;
                m.file = f;
                m.rank = r;
                m.color = me;
                if (have_stone) {
                    m.kind = Kind::Flat;
                    out.push_back(m);
                    m.kind = Kind::Wall;
                    out.push_back(m);
                }
                if (have_cap) {
                    m.kind = Kind::Cap;
                    out.push_back(m);
                }
                continue;
            }
            if (st.back().color != me) continue;
            const int height = static_cast<int>(st.size());
            const int max_carry = std::min(height, p.n);
            const bool top_is_cap = st.back().kind == Kind::Cap;
            for (char dir : {'+', '-', '>', '<'}) {
                int df, dr;
                dir_delta(dir, df, dr);
                for (int k = 1; k <= max_carry; ++k) {
                    Move base;
                    base.is_spread = true;
                    base.file = f;
                    base.rank = r;
                    base.dir = dir;
                    std::vector<int> drops;
                    gen_drops(p, f, r, df, dr, k, top_is_cap, drops, base, out);
                }
            }
        }
    }
    return out;
}

Position apply(const Position& p, const Move& m) {
    Position q = p;
    if (!m.is_spread) {
        q.board[m.rank][m.file].push_back(Piece{m.color, m.kind});
    } else {
        int count = 0;
        for (int d : m.drops) count += d;
        Stack& src = q.board[m.rank][m.file];
        Stack carried(src.end() - count, src.end());  // bottom -> top
        src.erase(src.end() - count, src.end());
        int df, dr;
        dir_delta(m.dir, df, dr);
        int f = m.file, r = m.rank;
        std::size_t next = 0;
        for (int d : m.drops) {
            f += df;
            r += dr;
            Stack& target = q.board[r][f];
            if (!target.empty() && target.back().kind == Kind::Wall) target.back().kind = Kind::Flat;
            for (int i = 0; i < d; ++i) target.push_back(carried[next++]);
        }
    }
    if (q.to_move == 1) {
        q.to_move = 2;
    } else {
        q.to_move = 1;
        q.move_number += 1;
    }
    return q;
}

// ---------------------------------------------------------------------- result

bool road_square(const Position& p, int f, int r, int color) {
    const Stack& st = p.board[r][f];
    return !st.empty() && st.back().color == color && st.back().kind != Kind::Wall;
}

// Flood fill from one edge, check whether the opposite edge is reached.
bool has_road_dir(const Position& p, int color, bool horizontal) {
    std::vector<std::vector<bool>> seen(p.n, std::vector<bool>(p.n, false));
    std::vector<std::pair<int, int>> todo;  // (file, rank)
    for (int i = 0; i < p.n; ++i) {
        int f = horizontal ? 0 : i;
        int r = horizontal ? i : 0;
        if (road_square(p, f, r, color)) {
            seen[r][f] = true;
            todo.push_back({f, r});
        }
    }
    while (!todo.empty()) {
        auto [f, r] = todo.back();
        todo.pop_back();
        if (horizontal ? f == p.n - 1 : r == p.n - 1) return true;
        const int dfs[4] = {1, -1, 0, 0};
        const int drs[4] = {0, 0, 1, -1};
        for (int i = 0; i < 4; ++i) {
            int nf = f + dfs[i], nr = r + drs[i];
            if (on_board(p, nf, nr) && !seen[nr][nf] && road_square(p, nf, nr, color)) {
                seen[nr][nf] = true;
                todo.push_back({nf, nr});
            }
        }
    }
    return false;
}

bool has_road(const Position& p, int color) { return has_road_dir(p, color, true) || has_road_dir(p, color, false); }

std::string result_of(const Position& p, int half_komi) {
    const bool white_road = has_road(p, 1);
    const bool black_road = has_road(p, 2);
    if (white_road && black_road) {
        int just_moved = 3 - p.to_move;
        return just_moved == 1 ? "R-0" : "0-R";
    }
    if (white_road) return "R-0";
    if (black_road) return "0-R";

    bool any_empty = false;
    for (const auto& row : p.board)
        for (const auto& st : row)
            if (st.empty()) any_empty = true;
    bool out_of_pieces = false;
    for (int color = 1; color <= 2; ++color)
        if (stones_left(p, color) == 0 && caps_left(p, color) == 0) out_of_pieces = true;
    if (!any_empty || out_of_pieces) {
        long long white = 0, black = 0;
        for (const auto& row : p.board)
            for (const auto& st : row)
                if (!st.empty() && st.back().kind == Kind::Flat) {
                    if (st.back().color == 1)
                        ++white;
                    else
                        ++black;
                }
        long long w2 = white * 2;
        long long b2 = black * 2 + half_komi;
        if (w2 > b2) return "F-0";
        if (b2 > w2) return "0-F";
        return "1/2-1/2";
    }
    return "";
}

std::uint64_t perft_of(const Position& p, int depth) {
    if (depth <= 0) return 1;
    if (!result_of(p, 0).empty()) return 0;
    std::vector<Move> moves = generate(p);
    if (depth == 1) return moves.size();  // every child counts 1 at depth 0
    std::uint64_t total = 0;
    for (const Move& m : moves) total += perft_of(apply(p, m), depth - 1);
    return total;
}

}  // namespace

std::vector<std::string> legal_moves(const std::string& tps) {
    Position p = parse_tps(tps);
    std::vector<std::string> out;
    for (const Move& m : generate(p)) out.push_back(move_ptn(m));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string apply_move(const std::string& tps, const std::string& ptn) {
    Position p = parse_tps(tps);
    for (const Move& m : generate(p))
        if (move_ptn(m) == ptn) return print_tps(apply(p, m));
    bad("illegal move '" + ptn + "' in position '" + tps + "'");
}

std::string result(const std::string& tps, int half_komi) { return result_of(parse_tps(tps), half_komi); }

std::uint64_t perft(const std::string& tps, int depth) { return perft_of(parse_tps(tps), depth); }

std::string canonical_tps(const std::string& tps) { return print_tps(parse_tps(tps)); }

}  // namespace tak_reference
