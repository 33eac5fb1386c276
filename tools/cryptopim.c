/*
 * cryptopim.c -- the `cryptopim` command-line tool: dispatch, help and
 * `list`.  Each other command has its own file (cli.h's list); `enc` and
 * `dec` are encdec_cmd.c over the enc/dec driver (encdec.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* ---- help ------------------------------------------------------------------ */

static const char main_help[] =
    "usage: cryptopim COMMAND [OPTIONS]\n"
    "\n"
    "Bulk AES and SHA-256 on UPMEM processing-in-memory DPUs (or the virtual\n"
    "UPMEM) and on CPU backends.\n"
    "\n"
    "commands:\n"
    "  enc        encrypt a file or stream (AES-ECB / AES-CTR like openssl enc,\n"
    "             AES-GCM)\n"
    "  dec        decrypt a file or stream\n"
    "  sha256sum  hash many files at once (output like coreutils sha256sum)\n"
    "  hmac       HMAC-SHA256 of files (output like openssl dgst -hmac)\n"
    "  pbkdf2     PBKDF2-HMAC-SHA256 key derivation (output like openssl kdf)\n"
    "  ntt        polynomial products / NTTs mod X^N + 1 (homomorphic encryption)\n"
    "  list       backends compiled in, and whether they are available here\n"
    "  speed      measure throughput of the backends\n"
    "  bench      run the CryptoPIM study's experiments (CSV + plots)\n"
    "  benchmark  the `cryptsetup benchmark` table (MiB/s per mode and key size)\n"
    "\n"
    "`cryptopim COMMAND --help` describes a command; `cryptopim --version`.\n";

/* ---- list ------------------------------------------------------------------ */

static const char list_help[] =
    "usage: cryptopim list\n"
    "\n"
    "One line per backend compiled in, in three columns:\n"
    "  NAME  available|unavailable  DESCRIPTION[ -- why it is unavailable]\n";

/* see cli.h */
int cmd_list(int argc, char **argv)
{
    cli_args a;
    const char *opt, *operand;
    cli_args_init(&a, argc, argv);
    while (cli_next(&a, &opt, &operand)) {
        if (opt && strcmp(opt, "--help") == 0) {
            fputs(list_help, stdout);
            return CLI_OK;
        }
        if (opt)
            cli_error("list: unknown option %s", cli_quote(opt));
        else
            cli_error("list: unexpected operand (argument %d)", cli_arg_number(&a));
        return CLI_USAGE;
    }
    size_t n = cpim_backend_count();
    for (size_t i = 0; i < n; i++) {
        cpim_backend_info info;
        if (cpim_backend_info_at(i, &info) != CPIM_OK)
            continue;
        printf("%-9s  %-11s  %s%s%s\n", info.name, info.available ? "available" : "unavailable",
               info.description, info.available ? "" : " -- ", info.why);
    }
    return CLI_OK;
}

/* ---- the experiment suite -------------------------------------------------- */

/* speed, study, bench and benchmark are cryptopim-bench's (bench/): run it in place of
 * this process, from the folder of this executable (build/ or the install
 * prefix's bin/), else from PATH.  Returns only on failure. */
static int run_bench_program(char **argv)
{
    char self[4096], path[4096 + 32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    argv[0] = "cryptopim-bench";
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            snprintf(path, sizeof path, "%s/cryptopim-bench", self);
            execv(path, argv);
        }
    }
    execvp("cryptopim-bench", argv);
    cli_error("'%s' needs the experiment suite, cryptopim-bench, which was not found next to "
              "cryptopim or on PATH (make builds it): %s",
              argv[1], strerror(errno));
    return CLI_USAGE;
}

/* ---- main ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    if (cli_guard_std_fds() != 0) {
        cli_error("cannot reserve the standard descriptors: %s", strerror(errno));
        return CLI_USAGE;
    }
    if (argc < 2) {
        fputs(main_help, stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    int rc;
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(main_help, stdout);
        return CLI_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("%s %s\n", CLI_NAME, CLI_VERSION);
        return CLI_OK;
    }
    if (strcmp(cmd, "enc") == 0 || strcmp(cmd, "dec") == 0) {
        cli_no_core_dumps();
        rc = cmd_encdec(argc - 2, argv + 2, cmd[0] == 'e' ? CPIM_ENCRYPT : CPIM_DECRYPT);
    } else if (strcmp(cmd, "sha256sum") == 0)
        rc = cmd_sha256sum(argc - 2, argv + 2);
    else if (strcmp(cmd, "hmac") == 0 || strcmp(cmd, "pbkdf2") == 0) {
        cli_no_core_dumps();
        rc = cmd[0] == 'h' ? cmd_hmac(argc - 2, argv + 2) : cmd_pbkdf2(argc - 2, argv + 2);
    } else if (strcmp(cmd, "list") == 0)
        rc = cmd_list(argc - 2, argv + 2);
    else if (strcmp(cmd, "ntt") == 0)
        rc = cmd_ntt(argc - 2, argv + 2);
    else if (strcmp(cmd, "speed") == 0 || strcmp(cmd, "bench") == 0 || strcmp(cmd, "study") == 0 ||
             strcmp(cmd, "benchmark") == 0)
        return run_bench_program(argv);
    else {
        cli_error("unknown command %s (enc, dec, sha256sum, hmac, pbkdf2, ntt, list, speed, bench, "
                  "benchmark; see --help)",
                  cli_quote(cmd));
        return CLI_USAGE;
    }
    return cli_finish_stdout(cmd, rc);
}
