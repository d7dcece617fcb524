/* compare_report — what `brisk compare` found, from its result (read
 * only): the plain-text report, JSON (every figure, arm-run and sample;
 * schemas/brisk-compare.schema.json), CSV of the samples, and --save's
 * profile of the recommended arm.  Every string of the result is
 * untrusted: text escapes it to ASCII (text_escape(), then \xHH above
 * 0x7e), CSV writes it through csv_text(), JSON escapes by construction.
 * A figure that does not exist (NaN) is "-" in text, empty in CSV and
 * null in JSON, never 0.  Times are ms, ratios arm / baseline.  Files are
 * written whole (outfile; "-" is stdout).  What each output holds:
 * brisk-compare(1).
 */
#ifndef BRISK_COMPARE_REPORT_H
#define BRISK_COMPARE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "compare.h"

#define COMPARE_REPORT_COLS 100
#define COMPARE_REPORT_FORMAT_VERSION 1

/* The text report to f: no line longer than COMPARE_REPORT_COLS. */
void compare_report_text(FILE *f, const struct compare_result *r);
/* JSON and CSV to path.  0, or -errno with a message naming the path in
 * err (-ENOMEM: JSON could not be built). */
int compare_report_json(const struct compare_result *r, const char *path, char *err,
			size_t errlen);
/* The JSON document itself (jout.h: never NULL), for a caller that adds
 * to it (brisk tune). */
struct json_object;
struct json_object *compare_report_json_doc(const struct compare_result *r);
int compare_report_csv(const struct compare_result *r, const char *path, char *err,
		       size_t errlen);
/* The recommended arm's settings as the user profile NAME, read back and
 * compared before it is moved into place (over an existing NAME only with
 * force).  0; -ENODATA nothing to save (a result, not a failure);
 * -EEXIST; -EINVAL (a bad NAME, settings a profile cannot hold); -ENOENT
 * (no HOME); -ENOMEM; -errno; err says which and what to do. */
int compare_report_save(const struct compare_result *r, const char *name, int force,
			char *err, size_t errlen);

#endif
