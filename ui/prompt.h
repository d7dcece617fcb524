/* prompt — a one-line text input in a box over the dashboard (the name
 * of a profile to save).
 *
 * Contract: printable ASCII only, at most PROMPT_LEN - 1 characters;
 * prompt_key() returns PROMPT_SUBMIT on Enter with a non-empty input and
 * PROMPT_CANCEL on Esc; nothing else happens here.
 */
#ifndef BRISK_UI_PROMPT_H
#define BRISK_UI_PROMPT_H

#define PROMPT_LEN 64

enum prompt_result { PROMPT_NONE, PROMPT_SUBMIT, PROMPT_CANCEL };

struct prompt {
	char title[48];
	char label[48];
	char input[PROMPT_LEN];
	char note[160];
	int note_bad;
};

void prompt_init(struct prompt *p, const char *title, const char *label, const char *note);
enum prompt_result prompt_key(struct prompt *p, int ch);
void prompt_draw(const struct prompt *p);

#endif
