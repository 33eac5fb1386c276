/* The unit-test program: every TEST() of tests/test_*.c, run by the harness
 * (tests/harness.c); arguments select tests by name prefix. */
#include "test.h"

int main(int argc, char **argv)
{
    return test_main(argc, argv);
}
