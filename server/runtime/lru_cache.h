#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <utility>

namespace motion::server {

/// \brief Bounds of an LruCache: entries and their estimated bytes.
struct LruLimits {
  std::size_t max_entries = 256;
  std::size_t max_bytes = SIZE_MAX;
};

/// \brief Counters of an LruCache, for its owner's statistics.
struct LruCounters {
  std::size_t entries = 0;
  std::size_t bytes = 0;
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t evictions = 0;
};

/// \brief A map bounded by entry count and estimated bytes; least recently
/// used entries go first, but never the one just inserted (so a single entry
/// larger than `max_bytes` is still kept until the next insert).
///
/// Not thread safe: the registries that own one lock around it, and build
/// what they insert outside their lock. Values are typically shared_ptrs, so
/// an evicted value stays alive for the requests still holding it.
template <typename Key, typename Value>
class LruCache {
 public:
  explicit LruCache(LruLimits limits) : limits_(limits) {}

  /// \brief The value under `key`, now the most recently used; null when
  /// absent. `K` may be any type `Key` compares with (string_view for
  /// string keys).
  template <typename K>
  const Value* Find(const K& key) {
    auto it = index_.find(key);
    if (it == index_.end()) {
      ++counters_.misses;
      return nullptr;
    }
    ++counters_.hits;
    entries_.splice(entries_.begin(), entries_, it->second);
    return &it->second->value;
  }

  /// \brief Stores `value` under `key` unless the key is present, then evicts
  /// beyond the limits. Returns the stored value (the earlier one when the
  /// key was present: the first of racing builds wins) and whether it was.
  std::pair<const Value*, bool> Insert(Key key, Value value, std::size_t bytes) {
    if (auto it = index_.find(key); it != index_.end()) return {&it->second->value, true};
    entries_.push_front(Entry{key, std::move(value), bytes});
    index_.emplace(std::move(key), entries_.begin());
    counters_.bytes += bytes;
    while (entries_.size() > 1 &&
           (entries_.size() > limits_.max_entries || counters_.bytes > limits_.max_bytes)) {
      counters_.bytes -= entries_.back().bytes;
      index_.erase(entries_.back().key);
      entries_.pop_back();
      ++counters_.evictions;
    }
    counters_.entries = entries_.size();
    return {&entries_.front().value, false};
  }

  /// \brief Drops the entry under `key`, if any.
  template <typename K>
  void Erase(const K& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return;
    counters_.bytes -= it->second->bytes;
    entries_.erase(it->second);
    index_.erase(it);
    counters_.entries = entries_.size();
  }

  /// \brief Calls `f(key, value)` for every entry, in key order.
  template <typename F>
  void ForEach(F f) const {
    for (const auto& [key, it] : index_) f(key, it->value);
  }

  const LruCounters& counters() const { return counters_; }

 private:
  struct Entry {
    Key key;
    Value value;
    std::size_t bytes = 0;
  };
  LruLimits limits_;
  std::list<Entry> entries_;  ///< most recently used first
  std::map<Key, typename std::list<Entry>::iterator, std::less<>> index_;
  LruCounters counters_;
};

}  // namespace motion::server
