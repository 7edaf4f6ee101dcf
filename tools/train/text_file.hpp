#pragma once
// Writing a trainer's output (weights, generated C++): the whole file replaced, and a failure
// reported on stderr in the trainer's name.

#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

namespace bge::train {

inline bool write_text_file(std::string_view program, const std::string& path, const std::string& text) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << text;
    file.close();
    if (!file) {
        std::cerr << program << ": cannot write " << path << "\n";
        return false;
    }
    return true;
}

}  // namespace bge::train
