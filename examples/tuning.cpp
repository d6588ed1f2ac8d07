// First-use tuning, made visible: asks which parameters an SGEMM of a given shape would use on the default
// device, which tunes that shape the first time (TILECL_TUNE=first-use, the default), and prints the choice,
// where it came from and what it cost. Run it twice: the second run finds the choice in the tuning database
// on disk (TILECL_CACHE_DIR, `tilecl cache path`).
// Usage: tuning [N]   (an N x N x N SGEMM, default 512)
#include <cstdlib>
#include <iostream>
#include <string>

#include "tilecl/tilecl.hpp"

int main(int argc, char** argv) {
  const std::string n = argc > 1 ? argv[1] : "512";
  cl::Device device = tilecl::select_device();
  cl::Context context(device);
  cl::CommandQueue queue(context, device);
  const tilecl::tuning::Mode mode = tilecl::tuning::mode();
  std::cout << "device " << tilecl::device_info(device).device_name << " (fingerprint "
            << tilecl::device_info(device).fingerprint() << "), tuning mode "
            << (mode == tilecl::tuning::Mode::Off    ? "off"
                : mode == tilecl::tuning::Mode::Full ? "full"
                                                     : "first-use")
            << ", cache " << (tilecl::cache_directory().empty() ? "(off)" : tilecl::cache_directory()) << "\n";

  try {
    for (const auto& op : tilecl::tuning::tunable_ops())
      if (op.name == "gemm") std::cout << "gemm shapes: " << op.shape_syntax << "\n";
    const std::string shape = n + "x" + n + "x" + n;
    // Resolved exactly as a gemm call of this shape resolves it, so this is where first-use tuning happens.
    const tilecl::Statistics before = tilecl::statistics();
    const tilecl::tuning::Choice choice = tilecl::tuning::parameters_for(queue, "gemm", "float", shape);
    const tilecl::Statistics after = tilecl::statistics();
    std::cout << "gemm float " << shape << " (bucket " << choice.bucket << "): " << choice.parameters.to_string()
              << "\n  origin: " << tilecl::tuning::origin_name(choice.origin)
              << "; tuning searches run: " << after.tunings - before.tunings << " ("
              << (after.tuning_seconds - before.tuning_seconds) * 1e3
              << " ms), programs compiled: " << after.compiles - before.compiles << "\n";

    // Asking again costs nothing: the choice is held in memory (and was written to the database).
    const tilecl::tuning::Choice again = tilecl::tuning::parameters_for(queue, "gemm", "float", shape);
    std::cout << "asked again: " << again.parameters.to_string() << " (" << tilecl::tuning::origin_name(again.origin)
              << ", " << tilecl::statistics().tunings - after.tunings << " more searches)\n";
    return again.parameters == choice.parameters ? 0 : 1;
  } catch (const tilecl::Error& error) {
    std::cerr << error.what() << std::endl;
    return 1;
  }
}
