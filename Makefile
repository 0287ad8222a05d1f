# Two commands do everything on a fresh machine:
#   make run    the realtime worker on a private PostgreSQL with demo data
#   make test   every test against a throwaway PostgreSQL
.PHONY: run test deps build clean stop

run: deps
	scripts/run

test: deps
	scripts/test

deps:
	scripts/install-deps

build: deps
	swift build

stop:
	scripts/pg-cluster stop .data

clean: stop
	rm -rf .data .build
