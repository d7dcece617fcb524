/* jout — JSON output built with json-c, where running out of memory is a
 * message and exit status 1, never a silent null in the output nor one of
 * json-c's assertions (json_object_object_add() on a NULL object aborts).
 *
 * Contract:
 *  - jout_object() .. jout_bool() return a new json-c object, never NULL:
 *    when json-c cannot allocate one, "brisk: out of memory while building
 *    JSON output" goes to stderr and the process exits with status 1
 *    (callers build output at the end, after settings were restored).
 *  - jout_finite(v) is v as a number, or NULL (JSON null: a figure that
 *    does not exist, never 0) when v is NaN or infinite; jout_ci() an
 *    interval (stats.h) as the object {"est", "lo", "hi"} of three such
 *    numbers.
 *  - jout_write() prints the object (json-c flags) and a newline to f and
 *    drops the caller's reference; 0, or -ENOMEM / -EIO.
 *  - jout_save() writes the object (pretty, no slash escapes) to PATH
 *    whole or not at all (outfile: temp, fsync, rename; "-" is stdout)
 *    and drops the reference; 0, or -errno with a message naming PATH in
 *    err (out of memory, the write, the rename).
 *  - jout_setting() is a value read from sysfs or /proc/sys as JSON, typed
 *    by the settings table (tunable.h), not by how the text looks: for a
 *    KEY the table types as a number ("nr_requests", "iosched/slice_idle",
 *    "vm.dirty_ratio"; an iosched KEY is looked up for scheduler SCHED) a
 *    VALUE that is a decimal integer is a number, anything else a string
 *    (the scheduler, "[mq-deadline] none", "write back", a cut-off
 *    value); a KEY the table does not know (an iosched tunable of another
 *    scheduler, a lab disk's attribute such as "queue/rotational") is a
 *    number when VALUE is a decimal integer.  NULL VALUE: null.
 *  - jout_path() is PATH as an absolute path (fileio_abspath: resolved
 *    with realpath when resolve is set and it resolves): every path in
 *    brisk's JSON is absolute.
 *  - Strings are copied as given: json-c escapes control bytes, so JSON
 *    needs no text_escape().
 */
#ifndef BRISK_JOUT_H
#define BRISK_JOUT_H

#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

#include "stats.h"

struct json_object *jout_object(void);
struct json_object *jout_array(void);
struct json_object *jout_string(const char *s);
struct json_object *jout_int64(int64_t v);
struct json_object *jout_uint64(uint64_t v);
struct json_object *jout_double(double v);
struct json_object *jout_bool(int v);
struct json_object *jout_finite(double v);
struct json_object *jout_ci(const struct stats_ci *ci);
struct json_object *jout_setting(const char *key, const char *sched, const char *value);
struct json_object *jout_path(const char *path, int resolve);
int jout_write(FILE *f, struct json_object *o, int flags);
int jout_save(const char *path, struct json_object *o, char *err, size_t errlen);

#endif
