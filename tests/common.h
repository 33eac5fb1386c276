/* common.h -- helpers of the unit tests that use libcryptopim (the harness,
 * test.h, needs only libc and is shared with the emu test programs). */
#ifndef CPIM_TESTS_COMMON_H
#define CPIM_TESTS_COMMON_H

/* Returns 1 when backend `name` is available; otherwise marks the running
 * test skipped with the backend's reason and returns 0, so a test can begin
 * with `if (!test_require_backend("pim")) return;`. */
int test_require_backend(const char *name);

#endif /* CPIM_TESTS_COMMON_H */
