# Persist: build helpers. `make demo` runs the main job, `make test` runs every test.
SWIFT ?= swift
TSAN_BUILD := .build-tsan

.PHONY: deps demo build test test-unit test-tsan docs clean

deps:
	@./scripts/install-deps.sh

demo: deps
	$(SWIFT) run QuickStart

build: deps
	$(SWIFT) build --build-tests

# Every test, then the concurrency tests again under ThreadSanitizer.
test: test-unit test-tsan

test-unit: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

test-tsan: deps
	$(SWIFT) test --scratch-path $(TSAN_BUILD) --sanitize=thread --filter concurrency

# The Persist.docc catalog, built with swift-docc-plugin; any warning fails the build.
docs: deps
	$(SWIFT) package --disable-sandbox generate-documentation --target Persist --warnings-as-errors

clean:
	rm -rf .build $(TSAN_BUILD)
