// Test helpers: ScopedEnv sets environment variables for one scope and puts back what was there before (set or
// unset); FreshCacheDirTest runs each test with FFT3D_CACHE_DIR at a fresh directory.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fft3d::testing {

class ScopedEnv {
 public:
  ScopedEnv() = default;
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  ~ScopedEnv() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->second) {
        setenv(it->first.c_str(), it->second->c_str(), 1);
      } else {
        unsetenv(it->first.c_str());
      }
    }
  }
  void set(const std::string& name, const std::string& value) {
    const char* old = std::getenv(name.c_str());
    saved_.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
    setenv(name.c_str(), value.c_str(), 1);
  }

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

// A test whose FFT3D_CACHE_DIR is a fresh directory, removed after it: no wisdom of this machine takes part.
class FreshCacheDirTest : public ::testing::Test {
 protected:
  explicit FreshCacheDirTest(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override {
    const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
    dir_ = std::filesystem::temp_directory_path() /
           (prefix_ + std::to_string(unit.random_seed()) + "-" + unit.current_test_info()->name());
    std::filesystem::remove_all(dir_);
    env_.set("FFT3D_CACHE_DIR", dir_.string());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
  ScopedEnv env_;

 private:
  std::string prefix_;
};

}  // namespace fft3d::testing
