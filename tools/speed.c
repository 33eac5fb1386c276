/* placeholder */
#include "cli.h"
int cmd_speed(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return 0;
}
