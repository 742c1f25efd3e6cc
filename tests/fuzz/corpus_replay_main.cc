// Replays a fuzz target's committed corpus in the ordinary build, so every
// input that once crashed motiond (each finding is added to the corpus) is
// run again by `make test`, and under the ASan + UBSan job of .ci/run,
// without clang or libFuzzer. The target aborts on whatever it checks (an
// error message with a raw '%', a mesh accepted beyond its limits); a crash
// fails the test as it would fail the fuzzer.
//
// Usage: <target>_corpus_replay DIR...   (every regular file, in name order)

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size);
// Defined by the targets that set up shared state once (request_fuzzer).
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR...\n", argv[0]);
    return 2;
  }
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  for (int d = 1; d < argc; ++d) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(argv[d])) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
      std::fprintf(stderr, "%s: no inputs in %s\n", argv[0], argv[d]);
      return 1;
    }
    const auto started = std::chrono::steady_clock::now();
    for (const auto& file : files) {
      std::ifstream in(file, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    }
    std::printf("replayed %zu inputs of %s in %.2f s\n", files.size(), argv[d],
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  }
  return 0;
}
