# Two commands do everything on a fresh machine:
#   make run    the worker on a private PostgreSQL with demo data (make stop ends both)
#   make test   every test against a throwaway PostgreSQL
# (make test-cluster runs the multi-worker scenarios behind haproxy and PgBouncer; CI runs both)
# (make fuzz runs the parsers' libFuzzer targets, 10 minutes each: see Fuzz/README.md)
.PHONY: run test test-cluster deps build clean stop fuzz

run: deps
	scripts/run

test: deps
	scripts/test

# Three workers behind haproxy, PgBouncer in front of Postgres: the scale-out scenarios.
test-cluster: deps
	scripts/test-cluster

deps:
	scripts/install-deps

build: deps
	swift build

# Not part of test: FUZZ_SECONDS (default 600) per target, one target at a time.
fuzz:
	scripts/fuzz

# The worker `make run` started (its pid is in .data/worker.pid), then its private cluster.
stop:
	scripts/stop

clean: stop
	rm -rf .data .build
