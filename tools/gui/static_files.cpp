#include "tools/gui/static_files.hpp"

#include <fstream>
#include <sstream>

namespace bge::gui {

namespace embedded {
struct File {
    const char* name;
    const unsigned char* data;
    std::size_t size;
};
extern const File files[];
extern const std::size_t file_count;
}  // namespace embedded

namespace {

std::string content_type_of(std::string_view name) {
    if (name.ends_with(".html")) return "text/html; charset=utf-8";
    if (name.ends_with(".css")) return "text/css; charset=utf-8";
    if (name.ends_with(".js")) return "text/javascript; charset=utf-8";
    if (name.ends_with(".svg")) return "image/svg+xml";
    return "application/octet-stream";
}

}  // namespace

std::optional<StaticFile> StaticFiles::find(std::string_view path) const {
    std::string_view name = path.substr(0, path.find('?'));
    if (name == "/" || name.empty()) name = "/index.html";
    name.remove_prefix(1);
    for (std::size_t i = 0; i < embedded::file_count; ++i) {
        const embedded::File& file = embedded::files[i];
        if (name != file.name) continue;
        StaticFile found;
        found.content_type = content_type_of(name);
        if (folder_.empty()) {
            found.content.assign(reinterpret_cast<const char*>(file.data), file.size);
            return found;
        }
        // Only names from the built-in list reach the folder, so no path can leave it.
        std::ifstream in(folder_ + "/" + file.name, std::ios::binary);
        if (!in) return std::nullopt;
        std::stringstream buffer;
        buffer << in.rdbuf();
        found.content = buffer.str();
        return found;
    }
    return std::nullopt;
}

}  // namespace bge::gui
