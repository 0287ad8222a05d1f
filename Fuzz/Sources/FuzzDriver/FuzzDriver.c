#include "FuzzDriver.h"

// From libclang_rt.fuzzer (LLVM 13 and later), linked by -sanitize=fuzzer.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int fuzz_driver_run(int argc, char **argv, FuzzTestOneInput testOneInput) {
    return LLVMFuzzerRunDriver(&argc, &argv, testOneInput);
}
