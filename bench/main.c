/*
 * main.c -- `cryptopim-bench speed|study|bench|benchmark|dudect ARGS`: the experiment suite.
 *
 * Users reach it through `cryptopim speed|study|bench|benchmark`, which runs this
 * program (found next to `cryptopim`, else on PATH): the experiments link
 * OpenSSL and intel-ipsec-mb for their comparisons, the CLI does not.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "cli.h"

int main(int argc, char **argv)
{
    /* the experiments open result files: none may become stdout */
    if (cli_guard_std_fds() != 0)
        return CLI_USAGE;
    const char *cmd = argc > 1 ? argv[1] : "";
    int rc;
    if (strcmp(cmd, "speed") == 0)
        rc = cmd_speed(argc - 2, argv + 2);
    else if (strcmp(cmd, "study") == 0)
        rc = cmd_study(argc - 2, argv + 2);
    else if (strcmp(cmd, "bench") == 0)
        rc = cmd_bench(argc - 2, argv + 2);
    else if (strcmp(cmd, "benchmark") == 0)
        rc = cmd_benchmark(argc - 2, argv + 2);
    else if (strcmp(cmd, "dudect") == 0)
        rc = cmd_dudect(argc - 2, argv + 2);
    else {
        cli_error("cryptopim-bench: unknown command '%s' (speed, study, bench, benchmark, dudect)",
                  cmd);
        return CLI_USAGE;
    }
    return cli_finish_stdout(cmd, rc);
}
