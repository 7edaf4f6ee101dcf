#pragma once
// A vector with inline, fixed capacity: move lists live in caller-owned buffers so search never
// allocates per node.

#include <array>
#include <cassert>
#include <cstddef>
#include <type_traits>

namespace bge {

template <class T, std::size_t Capacity>
class FixedVector {
    static_assert(std::is_trivially_copyable_v<T>, "FixedVector holds trivially copyable values");

public:
    using value_type = T;
    using iterator = T*;
    using const_iterator = const T*;

    static constexpr std::size_t capacity() { return Capacity; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    void clear() { size_ = 0; }

    void push_back(const T& value) {
        assert(size_ < Capacity);
        items_[size_++] = value;
    }
    void pop_back() {
        assert(size_ > 0);
        --size_;
    }
    void resize(std::size_t n) {
        assert(n <= Capacity);
        size_ = n;
    }

    T& operator[](std::size_t i) { return items_[i]; }
    const T& operator[](std::size_t i) const { return items_[i]; }
    T& back() { return items_[size_ - 1]; }
    T* data() { return items_.data(); }
    const T* data() const { return items_.data(); }

    iterator begin() { return items_.data(); }
    iterator end() { return items_.data() + size_; }
    const_iterator begin() const { return items_.data(); }
    const_iterator end() const { return items_.data() + size_; }

private:
    std::size_t size_ = 0;
    std::array<T, Capacity> items_;
};

}  // namespace bge
