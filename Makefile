# The two commands: `make run` and `make test` (see README.md).
BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc)
LISTEN ?= 127.0.0.1:50051
METRICS_LISTEN ?= 127.0.0.1:9464
CTEST_ARGS ?=
EDGE_JOBS ?= 2
FUZZ_SECONDS ?= 300
FUZZ_JOBS ?= 2

.PHONY: all bootstrap configure build run test bench edge fuzz format clean

all: build

bootstrap:
	@bash scripts/bootstrap.sh

configure: bootstrap
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) > $(BUILD_DIR).configure.log 2>&1 \
	  || (cat $(BUILD_DIR).configure.log; exit 1)

build: configure
	cmake --build $(BUILD_DIR) -j$(JOBS)

run: build
	$(BUILD_DIR)/server/motiond --listen=$(LISTEN) --metrics_listen=$(METRICS_LISTEN) \
	  --robots_dir=robots --log_level=info

test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j$(JOBS) $(CTEST_ARGS)

# aarch64 edge build: cross-compile, unit + service tests under qemu, tarball in
# dist/, smoke test and footprint (deploy/edge/build-edge.sh; README "Edge").
edge: build
	JOBS=$(EDGE_JOBS) bash deploy/edge/build-edge.sh $(BUILD_DIR)

# libFuzzer targets (tests/fuzz) in build-fuzz/ with clang, ASan and UBSan,
# each run FUZZ_SECONDS from its seed corpus with leak detection; fails on
# any crash, leak, timeout or sanitizer report (scripts/ci_fuzz_smoke.sh).
fuzz: bootstrap
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) bash scripts/ci_fuzz_smoke.sh

bench: build
	bash bench/run_benchmarks.sh $(BUILD_DIR)

format:
	git ls-files '*.cc' '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR).configure.log build-fuzz build-fuzz.configure.log build-arm64 build-arm64.configure.log dist
