/* parse — command-line and profile value parsing shared by every command.
 *
 * Contract: 0 on success, -EINVAL for malformed text, -ERANGE when out of
 * range; *out untouched on error.  Nothing prints.
 */
#ifndef BRISK_PARSE_H
#define BRISK_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* "4096", "4k", "1M", "2GiB", "30m" (binary multiples: k=1024) -> bytes. */
int parse_size(const char *s, uint64_t *out);
/* The inverse: bytes as the shortest exact text parse_size() reads back
 * ("4k", "30m", "4097").  Writes at most len bytes, NUL included. */
void parse_format_size(char *buf, size_t len, uint64_t v);
/* Bytes for people, in IEC units (1 KiB = 1024 B) with one decimal, the
 * largest unit that keeps the number at 1.0 or more: "512 B", "1.5 KiB",
 * "16.0 MiB" (never "0.0 GiB"), "1.0 GiB" for 1 GiB - 1 B (not
 * "1024.0 MiB"), "931.5 GiB", up to PiB.  (The dashboard's stack line
 * has its own 4-column form, "932G", see ui/dash.c fmt_size.) */
void parse_format_iec(char *buf, size_t len, uint64_t bytes);
/* "500ms", "20s", "2m", "1h", "1.5s", bare number = seconds -> nanoseconds. */
int parse_duration(const char *s, uint64_t *out_ns);
/* Decimal integer within [min, max]. */
int parse_int(const char *s, int64_t min, int64_t max, int64_t *out);
/* "4k-44k" or "4k" -> lo, hi (lo <= hi). */
int parse_size_range(const char *s, uint64_t *lo, uint64_t *hi);

#endif
