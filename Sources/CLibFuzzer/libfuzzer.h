#ifndef PERSIST_CLIBFUZZER_H
#define PERSIST_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's driver, for programs that keep their own main (SwiftPM names every executable's
   entry point itself). Provided by -sanitize=fuzzer; only referenced in builds that pass it. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
