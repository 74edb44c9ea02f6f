#include "port_corpus_random.h"
#include <stdlib.h>

static uint64_t state = 1;

void port_corpus_seed_random(uint64_t seed) { state = seed; }

static uint64_t next(void) {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint32_t arc4random(void) { return (uint32_t)(next() >> 32); }

uint32_t arc4random_uniform(uint32_t upper) { return upper < 2 ? 0 : (uint32_t)((next() >> 32) % upper); }

int rand(void) { return (int)((next() >> 33) & RAND_MAX); }
