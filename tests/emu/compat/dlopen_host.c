/* Host style: the application dlopen()s a plugin that holds the UPMEM
 * host code (plugin.c) and does not link libdpu itself.
 * Usage: dlopen_host PLUGIN.so KERNEL.dpu */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        printf("FAIL compat_dlopen: %s\n", dlerror());
        return 1;
    }
    int (*run)(const char *, uint64_t *);
    *(void **)&run = dlsym(h, "plugin_run");
    uint64_t sum = 0;
    int err = run ? run(argv[2], &sum) : -1;
    dlclose(h);
    if (err != 0 || sum != 2 * 1000 * 2) {
        printf("FAIL compat_dlopen: error %d, sum %llu (want 4000)\n", err,
               (unsigned long long)sum);
        return 1;
    }
    printf("PASS compat_dlopen\n");
    return 0;
}
