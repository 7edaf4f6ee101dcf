#pragma once
// The moves of an analysis as a tree, as lichess and ptn.ninja keep them: a move played where the
// line already goes on starts a variation beside it instead of deleting the rest. Each node's
// first child is its main continuation; the main line runs from the root through first children.
// Node ids stay valid while the node lives: a deleted variation's ids are never reused.

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/expected.hpp"

namespace bge::gui {

template <class Move>
class MoveTree {
public:
    static constexpr std::size_t root = 0;
    // A bound on the nodes one analysis may create, so no page can grow a session without end.
    static constexpr std::size_t max_nodes = 20'000;

    struct Node {
        std::size_t parent = root;
        std::optional<Move> move;  // empty at the root
        std::string comment;       // from a loaded record
        std::optional<int> record_score;  // the comment's score, first player's view
        std::vector<std::size_t> children;  // the first is the main continuation
        std::size_t depth = 0;             // plies from the root
        bool alive = true;
    };

    MoveTree() { nodes_.emplace_back(); }

    std::size_t size() const { return nodes_.size(); }
    const Node& operator[](std::size_t id) const { return nodes_[id]; }
    Node& operator[](std::size_t id) { return nodes_[id]; }
    bool contains(std::size_t id) const { return id < nodes_.size() && nodes_[id].alive; }

    // The child of `node` that plays `move`: the existing one, or a new one appended (the main
    // continuation where `node` had none, else a variation).
    Expected<std::size_t> child(std::size_t node, const Move& move) {
        for (const std::size_t existing : nodes_[node].children)
            if (nodes_[existing].move == move) return existing;
        if (nodes_.size() >= max_nodes)
            return Error{fmt::format("an analysis holds at most {} moves; set it up again to go on", max_nodes)};
        Node added;
        added.parent = node;
        added.move = move;
        added.depth = nodes_[node].depth + 1;
        nodes_.push_back(std::move(added));
        const std::size_t id = nodes_.size() - 1;
        nodes_[node].children.push_back(id);
        return id;
    }

    // The nodes from the root's first move to `node`.
    std::vector<std::size_t> path_to(std::size_t node) const {
        std::vector<std::size_t> path;
        for (std::size_t at = node; at != root; at = nodes_[at].parent) path.push_back(at);
        std::reverse(path.begin(), path.end());
        return path;
    }

    // The line that goes through `node`: its path, then its main continuation to the end.
    std::vector<std::size_t> line_through(std::size_t node) const {
        std::vector<std::size_t> line = path_to(node);
        for (std::size_t at = node; !nodes_[at].children.empty();) {
            at = nodes_[at].children.front();
            line.push_back(at);
        }
        return line;
    }

    // Makes the line through `node` the main line: at every branching point on its path, the
    // child on the path becomes the first.
    void promote(std::size_t node) {
        for (std::size_t at = node; at != root; at = nodes_[at].parent) {
            auto& siblings = nodes_[nodes_[at].parent].children;
            const auto found = std::find(siblings.begin(), siblings.end(), at);
            std::rotate(siblings.begin(), found, found + 1);
        }
    }

    // Deletes `node` and everything after it; returns its parent. The root cannot be deleted.
    std::size_t remove(std::size_t node) {
        const std::size_t parent = nodes_[node].parent;
        std::erase(nodes_[parent].children, node);
        std::vector<std::size_t> pending{node};
        while (!pending.empty()) {
            const std::size_t at = pending.back();
            pending.pop_back();
            nodes_[at].alive = false;
            pending.insert(pending.end(), nodes_[at].children.begin(), nodes_[at].children.end());
            nodes_[at].children.clear();
        }
        return parent;
    }

private:
    std::vector<Node> nodes_;
};

}  // namespace bge::gui
