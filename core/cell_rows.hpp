#pragma once
// The board field shared by Tak's TPS and Expendibots' FEN: rows from the top, separated by '/',
// each a comma-separated list of cells where a run of empty cells is written `x` (one) or `x<n>`.
// Each game writes its own cells (stacks of 1s and 2s, or w<h>/b<h>); this writes the rest.

#include <string>

namespace bge {

// `cell(row, column)` gives a cell's text, or an empty string for an empty cell; row 0 is the
// top row, written first.
template <class CellText>
std::string format_cell_rows(int rows, int columns, CellText&& cell) {
    std::string text;
    for (int row = 0; row < rows; ++row) {
        if (row > 0) text += '/';
        int empty_run = 0;
        bool first_cell = true;
        auto put = [&](const std::string& item) {
            if (!first_cell) text += ',';
            text += item;
            first_cell = false;
        };
        auto flush_empty = [&] {
            if (empty_run == 1) put("x");
            if (empty_run > 1) put("x" + std::to_string(empty_run));
            empty_run = 0;
        };
        for (int column = 0; column < columns; ++column) {
            const std::string item = cell(row, column);
            if (item.empty()) {
                ++empty_run;
                continue;
            }
            flush_empty();
            put(item);
        }
        flush_empty();
    }
    return text;
}

}  // namespace bge
