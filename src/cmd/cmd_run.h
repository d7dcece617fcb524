/* cmd_run — `brisk run [DIR] [options]`: the measurement in batch mode. */
#ifndef BRISK_CMD_RUN_H
#define BRISK_CMD_RUN_H

int cmd_run_main(int argc, char **argv);

#endif
