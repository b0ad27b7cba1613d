#include <boost/program_options/errors.hpp>
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>

#include "commands.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/diagnostics.hpp"

namespace {

using fft3d::cli::Args;

struct Command {
  const char* name;
  int (*run)(const Args&);
  const char* summary;
};

constexpr Command commands[] = {
    {"run", fft3d::cli::run_command, "run a plan on random data and report time, GFlops and error"},
    {"validate", fft3d::cli::validate_command, "check plan files, reporting every error with its location"},
    {"explain", fft3d::cli::explain_command, "show a plan's kernels, passes, bytes, flops and floor time"},
    {"plan", fft3d::cli::plan_command, "write the default planner's plan for a size and arch"},
    {"table", fft3d::cli::table_command, "list the tuning tables, or find the table plan for a size"},
    {"bench", fft3d::cli::bench_command, "sweep sizes on the GPU against cuFFT: table, CSV, JSON"},
};

void print_usage(std::ostream& out) {
  out << "fft3d: 3D FFTs from plan files in the notation of Wu & JaJa.\n\nusage: fft3d COMMAND [options]\n\n"
      << "commands:\n";
  for (const Command& c : commands) out << "  " << c.name << std::string(10 - std::string(c.name).size(), ' ') << c.summary << "\n";
  out << "\n`fft3d COMMAND --help` describes each command's options.\n";
}

// A command's output is only done once it reached stdout: a failed flush (a full disk, a closed pipe, /dev/full)
// turns a success into an error.
int flushed(const std::string& name, int code) {
  std::cout.flush();
  if (std::cout && std::fflush(stdout) == 0 && !std::ferror(stdout)) return code;
  std::cerr << "fft3d " << name << ": error: cannot write to standard output\n";
  return code == fft3d::cli::exit_ok ? fft3d::cli::exit_failed : code;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    print_usage(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? fft3d::cli::exit_usage : fft3d::cli::exit_ok;
  }
  const std::string name = argv[1];
  const Args args(argv + 2, argv + argc);
  for (const Command& command : commands) {
    if (name != command.name) continue;
    try {
      return flushed(name, command.run(args));
    } catch (const fft3d::PlanError& e) {
      std::cerr << e.what();
      return fft3d::cli::exit_failed;
    } catch (const boost::program_options::error& e) {
      std::cerr << "fft3d " << name << ": error: " << e.what() << "\n(see fft3d " << name << " --help)\n";
      return fft3d::cli::exit_usage;
    } catch (const fft3d::UsageError& e) {
      std::cerr << "fft3d " << name << ": error: " << e.what() << "\n";
      return fft3d::cli::exit_usage;
    } catch (const fft3d::GpuUnavailable& e) {
      std::cerr << "fft3d " << name << ": error: " << e.what() << "\n";
      return fft3d::cli::exit_unavailable;
    } catch (const fft3d::OutOfMemory& e) {
      std::cerr << "fft3d " << name << ": error: " << e.what() << "\n";
      return fft3d::cli::exit_unavailable;
    } catch (const std::bad_alloc&) {
      std::cerr << "fft3d " << name << ": error: out of host memory\n";
      return fft3d::cli::exit_unavailable;
    } catch (const std::exception& e) {
      std::cerr << "fft3d " << name << ": error: " << e.what() << "\n";
      return fft3d::cli::exit_failed;
    }
  }
  std::cerr << "fft3d: error: unknown command '" << name << "'\n\n";
  print_usage(std::cerr);
  return fft3d::cli::exit_usage;
}
