/*
 * resident_part.h -- the value of CRYPTOPIM_RESIDENT_PART: which part of the
 * resident experiment (bench/exp_resident.c) a process runs, so that
 * `make bench` can run it as parallel jobs (bench/bench.mk) whose rows
 * bench/merge_resident.sh puts back in the order of one run.
 *
 *   (unset or empty)  everything: the host rows and both halves of every point
 *   host              the AES-NI / SHA-NI rows only
 *   in-place, bus     that half of every point
 *   in-place.I, bus.I that half of the I-th point of the run's list (from 0)
 *   in-place.I+, bus.I+  ... of the I-th point and those after it
 *
 * I is 0..15 in decimal digits; nothing else is accepted (no sign, space or
 * trailing text).  A range past the end of the run's list is empty.
 */
#ifndef CPIM_BENCH_RESIDENT_PART_H
#define CPIM_BENCH_RESIDENT_PART_H

enum resident_what { RP_ALL, RP_HOST, RP_IN_PLACE, RP_BUS };

typedef struct {
    enum resident_what what;
    unsigned from, to; /* the points [from, to); to = ~0u: to the end */
} resident_part;

/* s: the variable's value (NULL: unset).  0, or -1 for a value that is
 * none of the above (*p is then RP_ALL, all points). */
int resident_part_parse(const char *s, resident_part *p);

#endif /* CPIM_BENCH_RESIDENT_PART_H */
