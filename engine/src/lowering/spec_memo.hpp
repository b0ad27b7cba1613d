// A memo of one lowering rule's results within the process, keyed on what the rule reads: the KernelSpec less the
// fields that only name it (plan_name, plan_hash, kernel_index), and the profile. Why: the default planner lowers
// every candidate plan, the candidates share kernels, and the rules memoized this way (lower_plan.cpp) are pure
// functions of that key that take most of a kernel's lowering.
// @pre rule() depends on nothing but the key. @post get(spec, profile, rule) == rule().
// Thread-safe: kernels lower on threads of their own. The rule runs outside the lock (two threads may both run it
// for a new key); a memo holding `capacity` entries is emptied before the next one goes in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fft3d/arch_profile.hpp"
#include "lowering/kernel_spec.hpp"

namespace fft3d::lowering {

template <class Value>
class SpecMemo {
 public:
  explicit SpecMemo(std::size_t capacity) : capacity_(capacity) {}

  template <class Rule>
  Value get(const KernelSpec& spec, const ArchProfile& profile, Rule rule) {
    Entry entry{unnamed(spec), profile, Value{}};
    const std::uint64_t hash = stable_hash(entry.spec);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (const Value* found = find(hash, entry)) return *found;
    }
    entry.value = rule();
    const std::lock_guard<std::mutex> lock(mutex_);
    if (size_ >= capacity_) {
      entries_.clear();
      size_ = 0;
    }
    std::vector<Entry>& bucket = entries_[hash];
    bucket.push_back(std::move(entry));
    ++size_;
    return bucket.back().value;
  }

 private:
  struct Entry {
    KernelSpec spec;
    ArchProfile profile;
    Value value;
  };

  static KernelSpec unnamed(KernelSpec spec) {
    spec.plan_name.clear();
    spec.plan_hash = 0;
    spec.kernel_index = 0;
    return spec;
  }

  // @pre mutex_ held.
  const Value* find(std::uint64_t hash, const Entry& key) const {
    const auto bucket = entries_.find(hash);
    if (bucket == entries_.end()) return nullptr;
    for (const Entry& entry : bucket->second)
      if (entry.spec == key.spec && entry.profile == key.profile) return &entry.value;
    return nullptr;
  }

  std::size_t capacity_;
  std::size_t size_ = 0;
  std::mutex mutex_;
  std::unordered_map<std::uint64_t, std::vector<Entry>> entries_;  // by stable_hash of the unnamed spec
};

}  // namespace fft3d::lowering
