// The fft3d command-line tool: one function per command, each parsing its own options.
#pragma once

#include <string>
#include <vector>

namespace fft3d::cli {

// Exit codes: conventional, and below 128 so they never read as a crash.
enum ExitCode : int {
  exit_ok = 0,
  exit_failed = 1,      // a plan failed its checks, or a transform missed its error bound
  exit_usage = 2,       // bad command line
  exit_unavailable = 3, // the requested backend or device cannot run here (no GPU, out of memory)
};

using Args = std::vector<std::string>;  // the command's arguments, without the command name

int validate_command(const Args& args);
int explain_command(const Args& args);
int run_command(const Args& args);
int plan_command(const Args& args);
int table_command(const Args& args);
int bench_command(const Args& args);

}  // namespace fft3d::cli
