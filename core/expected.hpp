#pragma once
// A value or a human-readable error. Text codecs and protocol handlers return this instead of
// throwing, so a bad line from a GUI becomes one clear error message and nothing else.

#include <string>
#include <utility>
#include <variant>

namespace bge {

struct Error {
    std::string message;
};

template <class T>
class [[nodiscard]] Expected {
public:
    Expected(T value) : content_(std::move(value)) {}
    Expected(Error error) : content_(std::move(error)) {}

    bool ok() const { return content_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(content_); }
    const T& value() const& { return std::get<0>(content_); }
    T&& value() && { return std::get<0>(std::move(content_)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const std::string& error() const { return std::get<1>(content_).message; }

private:
    std::variant<T, Error> content_;
};

// For operations that succeed with no value.
struct Done {};
using Status = Expected<Done>;
inline Status success() { return Done{}; }

inline Error make_error(std::string message) { return Error{std::move(message)}; }

}  // namespace bge
