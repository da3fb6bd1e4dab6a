# Persist: build helpers. `make demo` runs the main job, `make test` runs every test.
SWIFT ?= swift
TSAN_BUILD := .build-tsan
DEMO_ITEMS ?= 50000

.PHONY: deps demo quickstart build test test-with-server test-unit test-tsan torture docs bench postgres clean

deps:
	@./scripts/install-deps.sh

# The main job on a built-in example: build a sample GDBM store, then migrate it to SQLite with
# the progress bar and the summary.
demo: deps
	$(SWIFT) build --product persist-bench
	$(SWIFT) build --product persist-migrate
	rm -rf demo && mkdir -p demo
	.build/debug/persist-bench generate --items $(DEMO_ITEMS) --to gdbm:demo/legacy.db
	.build/debug/persist-migrate demo/legacy.db demo/restaurants.sqlite --progress always

quickstart: deps
	$(SWIFT) run QuickStart

build: deps
	$(SWIFT) build --build-tests

# Every test, then the concurrency tests again under ThreadSanitizer, against a throwaway
# PostgreSQL server that scripts/postgres-cluster.sh starts for the run and stops afterwards, even
# when a test fails; then the documentation.
test: deps
	./scripts/postgres-cluster.sh run $(MAKE) --no-print-directory test-with-server
	$(MAKE) --no-print-directory docs

test-with-server: test-unit test-tsan

test-unit: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

test-tsan: deps
	$(SWIFT) test --scratch-path $(TSAN_BUILD) --sanitize=thread --filter concurrency

# The crash suite at full strength (200 kills per case), then a table of kills and violations,
# against a throwaway PostgreSQL server (the PostgreSQL cases also stop servers of their own).
torture: deps
	PERSIST_CRASH_KILLS=$${PERSIST_CRASH_KILLS:-200} SWIFT=$(SWIFT) ./scripts/postgres-cluster.sh run ./scripts/torture.sh

# The documentation of every library, each from its own catalog (Persist.docc, the wrappers'
# PersistSQLite.docc, PersistGDBM.docc and PersistPostgres.docc with each store and its storage
# format, and PersistConformance.docc), built with swift-docc-plugin; any warning fails the build.
# DocC leaves empty TemporaryDirectory.* folders in TMPDIR, so it gets a folder of its own,
# removed afterwards whatever the outcome.
DOC_TARGETS := Persist PersistSQL PersistSQLite PersistGDBM PersistPostgres PersistConformance
docs: deps
	scratch=$$(mktemp -d) && trap 'rm -rf "$$scratch"' EXIT && \
	for target in $(DOC_TARGETS); do \
		TMPDIR="$$scratch" $(SWIFT) package --disable-sandbox generate-documentation --target $$target --warnings-as-errors || exit 1; \
	done

# Every benchmark scenario at full size, in release mode (takes several minutes), the PostgreSQL
# ones against a throwaway server that scripts/postgres-cluster.sh starts and stops. The migration
# scenarios also time persist-migrate as a process, so it is built in release mode too.
bench: deps
	$(SWIFT) build -c release --product persist-bench
	$(SWIFT) build -c release --product persist-migrate
	./scripts/postgres-cluster.sh run .build/release/persist-bench run

# A throwaway PostgreSQL server for development (scripts/postgres-cluster.sh): prints its URL and
# how to stop it. Run again, it prints the URL of the one already running.
PG_DEV_DIR ?= /tmp/persist-postgres-dev
postgres: deps
	@if [ -f $(PG_DEV_DIR)/url ] && [ -f $(PG_DEV_DIR)/data/postmaster.pid ]; then \
		echo "a development server is already running in $(PG_DEV_DIR)"; \
	else \
		./scripts/postgres-cluster.sh stop $(PG_DEV_DIR) 2>/dev/null; \
		./scripts/postgres-cluster.sh start $(PG_DEV_DIR) >/dev/null || exit 1; \
	fi
	@echo "export PERSIST_POSTGRES_URL=$$(cat $(PG_DEV_DIR)/url)"
	@echo "stop it with: scripts/postgres-cluster.sh stop $(PG_DEV_DIR)"

clean:
	rm -rf .build $(TSAN_BUILD) demo
