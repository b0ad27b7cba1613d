// Limits (limits.hpp): impossible sizes, runs that cannot fit, thread counts and option values are refused in
// constant time with the reason and the numbers, before any planning or allocation.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <chrono>
#include <string>

#include "fft3d/checks.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/limits.hpp"
#include "parallel_for.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/wisdom.hpp"

namespace fft3d::testing {
namespace {

constexpr double refusal_seconds = 1;

template <class Call>
double seconds_of(Call call) {
  const auto start = std::chrono::steady_clock::now();
  call();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// What `what()` says, or "" when `call` throws nothing of type E.
template <class E, class Call>
std::string message_of(Call call) {
  try {
    call();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

TEST(Limits, ASizeOverTheBufferLimitIsRefusedBeforePlanning) {
  const Extents size{1 << 20, 1 << 20, 1 << 19};  // 2^59 elements
  std::string message;
  const double seconds = seconds_of([&] {
    message = message_of<UsageError>([&] { default_plan(size, "tesla"); });
  });
  EXPECT_LT(seconds, refusal_seconds);
  EXPECT_NE(message.find("2^58"), std::string::npos) << message;
  EXPECT_NE(message.find("1048576 * 1048576 * 524288"), std::string::npos) << message;
  EXPECT_NE(message_of<UsageError>([&] { ranked_plans(size, "hopper", {}, 4); }), "");
  EXPECT_NE(message_of<UsageError>([&] { plan_for_size(size, "hopper", false, {}); }), "");
}

// A 1D length over max_1d_length is refused in every axis placement, by the planner, the plan for a run and the
// plan checker, before any planning work; the longest supported 1D size and a 2D size of more points pass.
TEST(Limits, A1dLengthOverTheMaximumIsRefusedNamingTheLimit) {
  const std::int64_t over = 2 * max_1d_length;
  for (const Extents& size : {Extents{over, 1, 1}, Extents{1, over, 1}, Extents{1, 1, over}}) {
    std::string message;
    const double seconds = seconds_of([&] { message = message_of<UsageError>([&] { default_plan(size, "hopper"); }); });
    EXPECT_LT(seconds, refusal_seconds);
    EXPECT_NE(message.find("over the supported maximum of 2^27 = 134217728 points"), std::string::npos) << message;
    EXPECT_NE(message_of<UsageError>([&] { plan_for_size(size, "hopper", false, {}); }), "");
    EXPECT_NE(message_of<UsageError>([&] { check_size_limits(size); }), "");
    Plan plan{size, "hopper", {}};
    EXPECT_NE(message_of<PlanError>([&] { require_legal(plan); }).find("2^27"), std::string::npos);
  }
  EXPECT_NO_THROW(check_size_limits({1, 1, max_1d_length}));
  EXPECT_NO_THROW(check_size_limits({over, 2, 1}));
}

// The largest size with passes that reject every candidate: the search stops at its bound instead of building
// every decomposition.
TEST(Limits, APlannerSearchIsBoundedEvenWhenNoCandidateRuns) {
  const Extents size{1 << 20, 1 << 20, 1 << 18};
  std::string message;
  const double seconds = seconds_of([&] {
    message = message_of<UsageError>(
        [&] { ranked_plans(size, "tesla", [](const Plan&) { return std::optional<double>(); }, 1); });
  });
  EXPECT_NE(message.find(std::to_string(max_planner_candidates) + " candidates weighed"), std::string::npos)
      << message;
  EXPECT_LT(seconds, 10 * refusal_seconds);
}

TEST(Limits, SizesOverflowingSixtyFourBitsAreRefusedNotWrapped) {
  const Extents size{std::int64_t{1} << 40, std::int64_t{1} << 40, 1};
  EXPECT_NE(message_of<UsageError>([&] { check_size_limits(size); }).find("2^58"), std::string::npos);
  EXPECT_NE(message_of<UsageError>([&] { (void)Extents{std::int64_t{1} << 62, 4, 1}.elements(); }), "");
  EXPECT_FALSE(checked_multiply(std::int64_t{1} << 62, 4));
  EXPECT_EQ(checked_multiply(std::int64_t{1} << 30, 4), std::int64_t{1} << 32);
}

TEST(Limits, TheLargestSizeIsAllowedAndItsMemoryIsCountedWithoutOverflow) {
  const Extents size{1 << 20, 1 << 20, 1 << 18};  // exactly 2^58 elements
  EXPECT_NO_THROW(check_size_limits(size));
  EXPECT_GT(run_host_bytes(size), 16.0 * static_cast<double>(max_elements));
  const std::string message =
      message_of<OutOfMemory>([&] { check_run_host_memory(size, std::int64_t{24} << 30); });
  EXPECT_NE(message.find("needs about"), std::string::npos) << message;
  EXPECT_NE(message.find("25769803776 B"), std::string::npos) << message;
}

TEST(Limits, TheHostMemoryOfARunCountsEveryVolumeItHolds) {
  const double volume_3d = 16.0 * 1024 * 512 * 512;
  EXPECT_GE(run_host_bytes({1024, 512, 512}), 6 * volume_3d);
  const double volume_1d = 16.0 * 268435456;
  EXPECT_GE(run_host_bytes({268435456, 1, 1}), 10.4 * volume_1d);
  const std::int64_t machine = std::int64_t{24} << 30;
  EXPECT_NE(message_of<OutOfMemory>([&] { check_run_host_memory({1024, 512, 512}, machine); }), "");
  EXPECT_NE(message_of<OutOfMemory>([&] { check_run_host_memory({max_1d_length, 1, 1}, machine / 2); }), "");
  EXPECT_NO_THROW(check_run_host_memory({128, 128, 128}, machine));
}

TEST(Limits, AHugeRunIsRefusedWithinASecond) {
  const double seconds = seconds_of([] {
    EXPECT_NE(message_of<OutOfMemory>([] { check_run_host_memory({65536, 65536, 65536}, std::int64_t{24} << 30); }),
              "");
  });
  EXPECT_LT(seconds, refusal_seconds);
}

TEST(Limits, ThreadCountsOutsideTheBoundAreRefused) {
  EXPECT_NO_THROW(check_thread_count(0));
  EXPECT_NO_THROW(check_thread_count(max_cpu_threads));
  EXPECT_NE(message_of<UsageError>([] { check_thread_count(100000); }).find("100000"), std::string::npos);
  EXPECT_NE(message_of<UsageError>([] { check_thread_count(-3); }).find("-3"), std::string::npos);
}

// The system refuses threads once the address space cannot take their stacks: the call fails with an error, and
// the process does not abort.
TEST(LimitsDeathTest, AThreadTheSystemRefusesIsAnErrorNotAnAbort) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        rlimit limit{};
        getrlimit(RLIMIT_AS, &limit);
        limit.rlim_cur = rlim_t{1} << 30;  // far less than 512 stacks of 8 MB
        setrlimit(RLIMIT_AS, &limit);
        try {
          parallel_for(1 << 20, 512, [](std::int64_t, std::int64_t) {});
        } catch (const std::runtime_error& e) {
          std::_Exit(std::string(e.what()).find("cannot start thread") != std::string::npos ? 0 : 2);
        }
        std::_Exit(1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(Limits, OptionNumbersAreDigitsOnly) {
  EXPECT_EQ(parse_unsigned("42", "--seed"), 42u);
  EXPECT_EQ(parse_unsigned("18446744073709551615", "--seed"), UINT64_MAX);
  for (const char* bad : {"-1", "", " 1", "1x", "18446744073709551616", "+3"})
    EXPECT_NE(message_of<UsageError>([&] { parse_unsigned(bad, "--seed"); }).find("--seed"), std::string::npos)
        << bad;
}

TEST(Limits, ALongSizeStringIsRefusedWithoutRecursion) {
  const std::string spaces(30000, ' ');
  const std::string digits(30000, '7');
  for (const std::string& text : {spaces + "8x8x8x", spaces + "8x8x8" + spaces + "!", digits + "x8x8",
                                  "8x8x" + digits, std::string(100000, 'x')})
    EXPECT_NE(message_of<UsageError>([&] { parse_extents(text); }).find("expected NXxNYxNZ"), std::string::npos);
  EXPECT_EQ(parse_extents(spaces + "8x16X32" + spaces), (Extents{8, 16, 32}));
  EXPECT_EQ(parse_extents(" 8 x 16 x 32 "), (Extents{8, 16, 32}));
  EXPECT_EQ(parse_extents("999999999999999999x1x1").nx, 999999999999999999);
  EXPECT_NE(message_of<UsageError>([] { parse_extents("1000000000000000000x1x1"); }), "");
}

TEST(Limits, AnArchIsANameFromTheProfileTableNeverAPath) {
  for (const char* arch : {"../tesla", "/etc", "tesla/../hopper", "", "nope"}) {
    EXPECT_NE(message_of<UsageError>([&] { plan_for_size({64, 64, 64}, arch, false, {}); }).find("unknown arch"),
              std::string::npos)
        << arch;
    EXPECT_NE(message_of<UsageError>([&] { wisdom_path(arch, {64, 64, 64}, false); }), "") << arch;
  }
  EXPECT_EQ(require_arch_profile("tesla").name, "tesla");
}

}  // namespace
}  // namespace fft3d::testing
