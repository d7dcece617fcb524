#include "spark.h"

#include <math.h>

static const char *const utf8_glyphs[SPARK_LEVELS] = {
	"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
};
static const char *const ascii_glyphs[SPARK_LEVELS] = {
	"_", ".", "-", "=", "+", "*", "#", "@",
};

int spark_level_linear(double v, double max)
{
	if (isnan(v))
		return SPARK_EMPTY;
	if (!(max > 0) || v <= 0)
		return 0;
	int l = (int)(v / max * (SPARK_LEVELS - 1) + 0.5);
	return l < 0 ? 0 : l >= SPARK_LEVELS ? SPARK_LEVELS - 1 : l;
}

int spark_level_log(double v, double lo, double hi)
{
	if (isnan(v) || v <= 0)
		return SPARK_EMPTY;
	if (!(lo > 0) || !(hi > lo))
		return SPARK_LEVELS / 2;
	double f = (log(v) - log(lo)) / (log(hi) - log(lo));
	int l = (int)(f * (SPARK_LEVELS - 1) + 0.5);
	return l < 0 ? 0 : l >= SPARK_LEVELS ? SPARK_LEVELS - 1 : l;
}

const char *spark_glyph(int level, int utf8)
{
	if (level == SPARK_MARK)
		return utf8 ? "\u2502" : "|";
	if (level < 0 || level >= SPARK_LEVELS)
		return " ";
	return utf8 ? utf8_glyphs[level] : ascii_glyphs[level];
}
