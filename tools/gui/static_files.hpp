#pragma once
// The page's files: built into the binary (tools/gui/web, embedded at build time), or read from
// a folder given with --static (for editing the page without rebuilding). Only the files of the
// page are served: a name outside that list is 404, whatever the folder holds.

#include <optional>
#include <string>
#include <string_view>

namespace bge::gui {

struct StaticFile {
    std::string content;
    std::string content_type;
};

class StaticFiles {
public:
    // Empty folder: the built-in files.
    explicit StaticFiles(std::string folder = {}) : folder_(std::move(folder)) {}
    // `path` as requested ("/", "/app.js"); nullopt when there is no such file.
    std::optional<StaticFile> find(std::string_view path) const;

private:
    std::string folder_;
};

}  // namespace bge::gui
