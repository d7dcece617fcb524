/* splitbar — see splitbar.h. */
#include "splitbar.h"

#include <stdio.h>
#include <string.h>

#include "timesplit.h"

int splitbar_layout(const uint64_t *v, int n, int width, int *cells)
{
	if (n > TIMESPLIT_NPARTS)
		n = TIMESPLIT_NPARTS;
	long double total = 0;
	for (int i = 0; i < n; i++) {
		cells[i] = 0;
		total += (long double)v[i];
	}
	if (width <= 0 || total <= 0)
		return 0;
	long double rem[TIMESPLIT_NPARTS];
	int used = 0;
	for (int i = 0; i < n; i++) {
		long double q = (long double)v[i] * width / total;
		cells[i] = (int)q;
		rem[i] = q - cells[i];
		used += cells[i];
	}
	/* the cells left go to the largest remainders */
	while (used < width) {
		int best = -1;
		for (int i = 0; i < n; i++)
			if (v[i] && (best < 0 || rem[i] > rem[best] ||
				     (rem[i] == rem[best] && v[i] > v[best])))
				best = i;
		if (best < 0)
			break;
		cells[best]++;
		rem[best] = -1;   /* at most one extra cell each */
		used++;
	}
	/* a part of at least 1 % keeps a cell of its own, larger ones first */
	for (;;) {
		int need = -1, donor = -1;
		for (int i = 0; i < n; i++)
			if (!cells[i] && v[i] &&
			    (long double)v[i] * 1000 >= total * SPLITBAR_MIN_PERMILLE &&
			    (need < 0 || v[i] > v[need]))
				need = i;
		if (need < 0)
			break;
		for (int i = 0; i < n; i++)
			if (cells[i] > 1 && (donor < 0 || cells[i] > cells[donor]))
				donor = i;
		if (donor < 0)
			break;
		cells[donor]--;
		cells[need]++;
	}
	return width;
}

char splitbar_letter(int part)
{
	return part >= 0 && part < TIMESPLIT_NPARTS ? timesplit_key(part)[0] : '?';
}

void splitbar_text(const int *cells, int n, char *buf, size_t len)
{
	size_t o = 0;
	if (!len)
		return;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < cells[i] && o + 1 < len; k++)
			buf[o++] = splitbar_letter(i);
	buf[o] = '\0';
}

/* The parts of at least 1 %, largest first (ties: lower part). */
static int ranked(const uint64_t *v, int n, int *order, double *pct)
{
	uint64_t total = 0;
	int k = 0;
	for (int i = 0; i < n; i++)
		total += v[i];
	if (!total)
		return 0;
	for (int i = 0; i < n; i++) {
		double p = 100.0 * (double)v[i] / (double)total;
		if (p < 1)
			continue;
		int j = k++;
		while (j > 0 && v[order[j - 1]] < v[i]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (int i = 0; i < k; i++)
		pct[i] = 100.0 * (double)v[order[i]] / (double)total;
	return k;
}

static size_t caption_with(const int *order, const double *pct, int k, int labels, char *b,
			   size_t len)
{
	size_t o = 0;
	b[0] = '\0';
	for (int i = 0; i < k && o < len; i++)
		o += (size_t)snprintf(b + o, len - o, "%s%.0f %% %s", i ? ", " : "", pct[i],
				      labels ? timesplit_label(order[i]) : timesplit_key(order[i]));
	return o;
}

void splitbar_caption(const uint64_t *v, int n, int maxw, char *buf, size_t len)
{
	int order[TIMESPLIT_NPARTS];
	double pct[TIMESPLIT_NPARTS];
	char b[512];
	if (!len)
		return;
	buf[0] = '\0';
	if (n > TIMESPLIT_NPARTS)
		n = TIMESPLIT_NPARTS;
	int k = ranked(v, n, order, pct);
	if (k > 3)
		k = 3;
	/* words for the two largest (more words than that is a sentence, not
	 * a caption), else keys for three, two, one */
	for (int m = k; m >= 0; m--) {
		int labels = m == k;
		int parts = labels ? (k < 2 ? k : 2) : m + 1;
		if (!parts)
			break;
		size_t o = caption_with(order, pct, parts, labels, b, sizeof(b));
		if (o < sizeof(b) && (int)o <= maxw) {
			snprintf(buf, len, "%s", b);
			return;
		}
	}
}

static size_t legend_with(unsigned mask, int labels, int maxw, char *b, size_t len)
{
	size_t o = 0;
	b[0] = '\0';
	for (int p = 0; p < TIMESPLIT_NPARTS && o < len; p++) {
		if (!(mask & (1u << p)))
			continue;
		char item[64];
		int w = snprintf(item, sizeof(item), "%s%c %s", o ? "  " : "", splitbar_letter(p),
				 labels ? timesplit_label(p) : timesplit_key(p));
		if (!labels && maxw >= 0 && (int)o + w > maxw)
			break;   /* keys: as many as fit */
		o += (size_t)snprintf(b + o, len - o, "%s", item);
	}
	return o;
}

void splitbar_legend(unsigned mask, int maxw, char *buf, size_t len)
{
	char b[512];
	if (!len)
		return;
	size_t o = legend_with(mask, 1, -1, b, sizeof(b));
	if (o >= sizeof(b) || (int)o > maxw)
		legend_with(mask, 0, maxw, b, sizeof(b));
	snprintf(buf, len, "%s", b);
}
