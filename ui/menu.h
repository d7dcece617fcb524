/* menu — a small pick list drawn as a box over the dashboard (the
 * scheduler picker).
 *
 * Contract: items are copied; menu_key() consumes a key and says whether
 * the user picked an item (menu->sel is it), cancelled, or neither.
 * Drawing clips to the screen; nothing else is touched.
 */
#ifndef BRISK_UI_MENU_H
#define BRISK_UI_MENU_H

#include <stddef.h>

#define MENU_MAX 16

enum menu_result { MENU_NONE, MENU_PICK, MENU_CANCEL };

struct menu {
	char title[64];
	char note[160];            /* one line under the items */
	char items[MENU_MAX][32];
	char marks[MENU_MAX][16];  /* right-hand tag, e.g. "active" */
	size_t n, sel;
};

/* items: space-separated words; sel starts on `current` when present. */
void menu_init(struct menu *m, const char *title, const char *items, const char *current,
	       const char *mark);
enum menu_result menu_key(struct menu *m, int ch);
void menu_draw(const struct menu *m);

#endif
