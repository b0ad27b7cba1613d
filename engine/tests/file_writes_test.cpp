// Files the tool writes (cache_files.hpp): every write is checked, a failure is an error naming the path, and
// writers racing on one path from many processes all succeed while readers only ever see a whole file.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "fft3d/file_writes.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/wisdom.hpp"
#include "scoped_env.hpp"

namespace fft3d::testing {
namespace {

namespace fs = std::filesystem;

fs::path fresh_directory(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("fft3d-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Process `writer`'s content: its number repeated, then an end mark, so a reader can tell a whole file.
std::string content_of(int writer) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += std::to_string(writer) + ",";
  return text + "end\n";
}

bool is_whole(const std::string& text) {
  for (int writer = 0; writer < 64; ++writer)
    if (text == content_of(writer)) return true;
  return false;
}

TEST(FileWrites, AFullDeviceIsAnErrorNotASuccess) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  EXPECT_THROW(write_file_atomically("/dev/full", "size: [8, 8, 8]\n"), UsageError);
}

TEST(FileWrites, AMissingFolderIsAnErrorNamingThePath) {
  try {
    write_file_atomically("/nonexistent-fft3d-folder/plan.yaml", "x");
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-fft3d-folder/plan.yaml"), std::string::npos) << e.what();
  }
}

TEST(FileWrites, AWriteReplacesTheFileWholeAndLeavesNoTemporaryFile) {
  const fs::path dir = fresh_directory("writes");
  const fs::path path = dir / "plan.yaml";
  write_file_atomically(path.string(), "first");
  write_file_atomically(path.string(), content_of(3));
  EXPECT_EQ(read_all(path), content_of(3));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

// Forked processes share the parent's thread ids and, without address-space randomisation, its addresses: the
// temporary names must still differ. Writers and readers race on one path; every write succeeds and every read
// sees a whole file.
TEST(FileWrites, ManyProcessesWritingOnePathNeverFailAndNeverShowAPartialFile) {
  const fs::path dir = fresh_directory("race");
  const fs::path path = dir / "wisdom.yaml";
  write_file_atomically(path.string(), content_of(0));
  constexpr int writers = 8, readers = 4, rounds = 150;
  std::vector<pid_t> children;
  for (int child = 0; child < writers + readers; ++child) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid > 0) {
      children.push_back(pid);
      continue;
    }
    int failures = 0;
    for (int round = 0; round < rounds; ++round) {
      if (child < writers) {
        try {
          write_file_atomically(path.string(), content_of(child + 1));
        } catch (const std::exception&) {
          ++failures;
        }
      } else if (!is_whole(read_all(path))) {
        ++failures;
      }
    }
    std::_Exit(failures == 0 ? 0 : 1);
  }
  int failed = 0;
  for (pid_t pid : children) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    failed += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(failed, 0) << "processes with a failed write or a partial read";
  EXPECT_TRUE(is_whole(read_all(path)));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1) << "temporary files left";
  fs::remove_all(dir);
}

TEST(FileWrites, ReadingWisdomNeedsNoWritableCacheFolder) {
  ScopedEnv env;
  env.set("FFT3D_CACHE_DIR", "/proc/fft3d-cannot-exist/cache");
  EXPECT_FALSE(find_wisdom_plan("tesla", {64, 64, 32}, false));
  const SizedPlan chosen = plan_for_size({64, 64, 32}, "tesla", false, {});
  EXPECT_EQ(chosen.parsed.plan.size, (Extents{64, 64, 32}));
  EXPECT_FALSE(fs::exists("/proc/fft3d-cannot-exist"));
}

}  // namespace
}  // namespace fft3d::testing
