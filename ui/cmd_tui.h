/* brisk tui — the ncurses dashboard (see brisk-tui(1) and ui/). */
#ifndef BRISK_CMD_TUI_H
#define BRISK_CMD_TUI_H

int cmd_tui_main(int argc, char **argv);

#endif
