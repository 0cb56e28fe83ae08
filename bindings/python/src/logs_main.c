/* logs_main.c - the helper behind pct.logs.read: `pct logs` itself (the log
 * code of tools/logs), run as a child process whose --json output the
 * Python side reads. argv is that of `pct logs ...`. */
#include "logs.h"

int main(int argc, char **argv)
{
    return pct_logs_main(argc, argv);
}
