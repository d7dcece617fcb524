/* cmd_tune — `brisk tune`: a settings space (tune_space.h) raced by the
 * compare engine, the best arm with its evidence (tune.h), a JSON kept
 * whole after each arm-run and --resume from it.  See brisk-tune(1). */
#ifndef BRISK_CMD_TUNE_H
#define BRISK_CMD_TUNE_H

int cmd_tune_main(int argc, char **argv);

#endif
