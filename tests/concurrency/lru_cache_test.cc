// The eviction policy the registries share (robots, scenes, collision
// models): least recently used first, by count and by bytes, never the entry
// just inserted, the first of two inserts under one key kept. Expected
// orders are worked out by hand from the sequence of calls.

#include "server/runtime/lru_cache.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

using motion::server::LruCache;
using motion::server::LruLimits;

std::vector<std::string> Keys(const LruCache<std::string, int>& cache) {
  std::vector<std::string> keys;
  cache.ForEach([&keys](const std::string& key, const int&) { keys.push_back(key); });
  return keys;
}

TEST(LruCacheTest, TheLeastRecentlyUsedGoesFirstWhenCountIsOver) {
  LruCache<std::string, int> cache(LruLimits{3});
  cache.Insert("a", 1, 0);
  cache.Insert("b", 2, 0);
  cache.Insert("c", 3, 0);
  ASSERT_NE(cache.Find("a"), nullptr);  // b is now the least recently used
  cache.Insert("d", 4, 0);
  EXPECT_EQ(Keys(cache), (std::vector<std::string>{"a", "c", "d"}));
  EXPECT_EQ(cache.Find("b"), nullptr);
  EXPECT_EQ(*cache.Find("d"), 4);
  EXPECT_EQ(cache.counters().evictions, 1u);
  EXPECT_EQ(cache.counters().hits, 2u);
  EXPECT_EQ(cache.counters().misses, 1u);
}

TEST(LruCacheTest, BytesEvictUntilUnderButNeverTheEntryJustInserted) {
  LruCache<std::string, int> cache(LruLimits{100, 10});
  cache.Insert("a", 1, 4);
  cache.Insert("b", 2, 4);
  EXPECT_EQ(cache.counters().bytes, 8u);
  cache.Insert("c", 3, 5);  // 13 > 10: a goes (9 left)
  EXPECT_EQ(Keys(cache), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(cache.counters().bytes, 9u);
  cache.Insert("huge", 4, 50);  // alone over the limit: everything else goes, it stays
  EXPECT_EQ(Keys(cache), (std::vector<std::string>{"huge"}));
  EXPECT_EQ(cache.counters().bytes, 50u);
  EXPECT_EQ(cache.counters().entries, 1u);
  EXPECT_EQ(cache.counters().evictions, 3u);
}

TEST(LruCacheTest, ASecondInsertUnderOneKeyKeepsTheFirstValue) {
  LruCache<std::string, int> cache(LruLimits{3});
  const auto first = cache.Insert("a", 1, 7);
  EXPECT_FALSE(first.second);
  const auto second = cache.Insert("a", 2, 9);
  EXPECT_TRUE(second.second);
  EXPECT_EQ(*second.first, 1);
  EXPECT_EQ(cache.counters().bytes, 7u);
  EXPECT_EQ(cache.counters().entries, 1u);
}

TEST(LruCacheTest, EraseGivesBackTheBytes) {
  LruCache<std::string, int> cache(LruLimits{3});
  cache.Insert("a", 1, 7);
  cache.Insert("b", 2, 5);
  cache.Erase("a");
  cache.Erase("missing");
  EXPECT_EQ(Keys(cache), (std::vector<std::string>{"b"}));
  EXPECT_EQ(cache.counters().bytes, 5u);
  EXPECT_EQ(cache.counters().entries, 1u);
  EXPECT_EQ(cache.counters().evictions, 0u);
}

}  // namespace
