// Deterministic randomness for the port corpus harness: the examples call arc4random() and rand()
// as iOS code does; the test executable defines both symbols (so they take precedence over libc's)
// with a seeded SplitMix64, and the harness seeds it before building each example, so every
// frame is reproducible.
#pragma once
#include <stdint.h>

void port_corpus_seed_random(uint64_t seed);
