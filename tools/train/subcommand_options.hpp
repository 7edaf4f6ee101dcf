#pragma once
// The command line of a trainer's subcommand (`train_tak_eval fit --games ...`), read the same
// way by each: a bad argument is named on stderr (status 2), `--help` prints the options
// (status 0).

#include <boost/program_options.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bge::train {

// Reads `arguments` into the variables `described` points at. Nothing when the subcommand should
// go on; otherwise the status it should exit with.
inline std::optional<int> parse_subcommand(std::string_view program,
                                           const boost::program_options::options_description& described,
                                           const std::vector<std::string>& arguments) {
    namespace po = boost::program_options;
    po::variables_map values;
    try {
        po::store(po::command_line_parser(arguments).options(described).run(), values);
        po::notify(values);
    } catch (const std::exception& error) {
        std::cerr << program << ": " << error.what() << "\n";
        return 2;
    }
    if (values.count("help")) {
        std::cout << described << "\n";
        return 0;
    }
    return std::nullopt;
}

}  // namespace bge::train
