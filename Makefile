# uberlazy — set-up and pipelines. `make help` lists the targets.
#
# The two set-up commands for a fresh machine (README): `make demo` and `make test`.
# Both install what is missing first (tools/deps.sh, apt-get).

CARGO    ?= cargo
BIN      := target/release/uberlazy
SAMPLES  := samples.Container\#swap samples.Triple\#sum samples.Chain\#hasNull4 samples.Chain\#hasNull10
DEMO_OUT := target/demo-tests

.PHONY: help deps build testdata test demo bench bench-parts bench-scale bench-scope realcode coverage jacoco-agent lint check-layers clean

help:
	@echo "make demo          install what is missing, build, show IR, trace tables and JUnit tests of the samples"
	@echo "make test          install what is missing, run the whole test suite (Rust + JVM)"
	@echo "make deps          install missing system packages (libz3-dev, JDK, junit5, junit4, jacoco, ...)"
	@echo "make build         release build"
	@echo "make testdata      rebuild testdata/*.jar from javasrc/ (javac --release 8, deterministic; test, demo and build run it)"
	@echo "make bench         SIR table results/bench.{csv,md} (make -j bench: parallel) + sample timings"
	@echo "make bench-scope   scope table results/scope.{csv,md}: SIR methods under repOK, scopes 1..8, per strategy"
	@echo "make bench-scale   hasNull with N = 4..64 for all strategies"
	@echo "make realcode      16 java.util / commons-collections4 targets: gen, compile, run (results/realcode.{csv,md})"
	@echo "make coverage      JaCoCo branch/line coverage of the samples by the emitted tests"
	@echo "make lint          rustfmt check and clippy (warnings are errors)"
	@echo "make check-layers  the data-flow invariants of ARCHITECTURE.md and the docs' relative links"

deps:
	@./tools/deps.sh

# The binary embeds testdata/models.jar, so the jars are brought up to date first.
build: deps testdata
	$(CARGO) build --release

# Rewrites a jar only when javac gives other bytes; without javac the committed jars stay.
testdata: deps
	python3 tools/testdata.py

test: deps testdata check-layers
	$(CARGO) test --release

demo: build
	@echo "== IR of the samples"
	$(BIN) ir --cp testdata/samples.jar samples.Container#swap samples.Triple#sum samples.Chain#hasNull4
	@echo "== traces of samples.Container#swap (uber)"
	$(BIN) run --cp testdata/samples.jar samples.Container#swap --strategy uber
	@echo "== trace counts of the four heap algorithms"
	$(BIN) compare --cp testdata/samples.jar $(SAMPLES) --format md
	@if $(BIN) gen --help >/dev/null 2>&1; then \
		echo "== JUnit tests of the samples (uber), run on the JVM"; \
		$(BIN) gen --cp testdata/samples.jar $(SAMPLES) --strategy uber --out $(DEMO_OUT) --force && \
		./tools/run-junit.sh $(DEMO_OUT) testdata/samples.jar 5; \
	fi

SIR_CLASSES := SinglyLinkedList DoublyLinkedList Stack BinarySearchTree AvlTree RedBlackTree AATree BinomialHeap
BENCH_PARTS := $(patsubst %,target/bench/%.csv,$(SIR_CLASSES))

# The SIR table (results/bench.{csv,md}); `make -j bench` runs the classes in parallel.
bench: build jacoco-agent
	rm -rf target/bench
	$(MAKE) bench-parts
	python3 tools/bench.py table $(BENCH_PARTS)
	@echo "== results/bench.md written; the paper samples:"
	./tools/bench.sh
	@echo "== uberlazy run time per SIR method and strategy (results/times*.csv; checks printed, failures do not stop make)"
	-python3 tools/bench.py times --csv results/times.csv
	-python3 tools/bench.py times --repok --csv results/times-repok.csv

bench-parts: $(BENCH_PARTS)

target/bench/%.csv:
	@mkdir -p target/bench
	python3 tools/bench.py class $* $@

bench-scale: build
	./tools/bench-scale.sh

bench-scope: build
	python3 tools/bench-scope.py

realcode: build deps jacoco-agent
	python3 tools/realcode.py

jacoco-agent: deps
	./tools/jacoco-agent.sh target/tools/jacocoagent.jar

coverage: build jacoco-agent
	./tools/coverage.sh

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

check-layers:
	@./tools/check-layers.sh
	@python3 tools/check-links.py

clean:
	$(CARGO) clean
