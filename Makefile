# Thin wrapper over CMake. `make run` and `make test` work on a fresh Debian/Ubuntu machine.
BUILD      ?= build/release
TESTBUILD  ?= build/asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
EXAMPLE    ?= examples/default.yaml

PREFIX     ?= $(HOME)/.local

.PHONY: all deps build install run run-virtual test bench format clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DHS_SANITIZE=OFF >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target hysim_cli

# The program (bin/hysim), its man page, the library and headers under PREFIX (docs/install.md).
install: build
	@cmake --build $(BUILD) -j $(JOBS) --target hysim_shared $$(command -v help2man >/dev/null && echo manpage)
	@cmake --install $(BUILD) --prefix $(PREFIX)
	@echo "installed $(PREFIX)/bin/hysim (is $(PREFIX)/bin on your PATH?)"

# The default example: two `hysim site` processes on loopback and Mosqueda et al.'s (2004) two-site test
# through them on the real clock (about 20 s), then the summary and the plots.
run: build
	@bash scripts/run-distributed.sh $(BUILD)/hysim runs/default
	@echo "results: runs/default (summary.json, response.csv, results.h5, *.png)"

# Mosqueda et al.'s (2004) one-hour continuous test replayed in virtual time (seconds), in-process sites.
run-virtual: build
	@$(BUILD)/hysim run $(EXAMPLE) -o runs/virtual --force
	@$(BUILD)/hysim plot runs/virtual
	@echo "results: runs/virtual (summary.json, response.csv, results.h5, *.png)"

test: deps
	@cmake -S . -B $(TESTBUILD) -DCMAKE_BUILD_TYPE=Debug -DHS_SANITIZE=ON -DCMAKE_C_COMPILER=clang >/dev/null
	@cmake --build $(TESTBUILD) -j $(JOBS)
	@cd $(TESTBUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

bench: build
	@cmake --build $(BUILD) -j $(JOBS)
	@for b in $(BUILD)/bench/bench_*; do echo "== $$b"; $$b; done

format:
	@clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	@rm -rf build
