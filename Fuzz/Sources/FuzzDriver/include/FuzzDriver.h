#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// One fuzz input; returns 0.
typedef int (*FuzzTestOneInput)(const uint8_t *data, size_t size);

/// Runs libFuzzer's driver (its usual command line) over `testOneInput`.
///
/// SwiftPM links every executable with `main` aliased to the module's own entry point, so
/// libFuzzer's `main` is never pulled in; each target's main.swift calls this instead.
int fuzz_driver_run(int argc, char **argv, FuzzTestOneInput testOneInput);

#endif
