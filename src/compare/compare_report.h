/* compare_report — what `brisk compare` found, from its result
 * (compare.h): a plain-text report fit for a mailing-list post, JSON
 * (every figure, every arm-run and every sample), CSV (the samples), and
 * `--save NAME`: the recommended arm's settings as a user profile.
 *
 * Contract:
 *  - Nothing here measures, changes a setting or reads the result's
 *    engine: only the struct compare_result given (read-only).
 *  - Times are milliseconds (text, CSV, JSON *_ms and the action figures);
 *    timestamps are seconds since the comparison began (t_s); ratios are
 *    arm / baseline (arm 0), so below 1 is faster.
 *  - A figure that does not exist (NaN: no samples, arm 0's ratios and p)
 *    is "-" in text, an empty field in CSV and null in JSON, never 0.
 *  - Every string of the result (dir, stack line, disks, workload, arm
 *    names, labels and settings, notes, messages, the recommendation and
 *    the rule) is untrusted: text writes it through text_escape() (then
 *    any byte above 0x7e as \xHH, so the text is ASCII only), CSV through
 *    csv_text(); JSON escapes by construction.  No control byte of the result reaches the
 *    output.
 *  - compare_report_text(): fixed width, no line longer than
 *    COMPARE_REPORT_COLS (long strings are wrapped, table labels cut to
 *    their column at a whole character or escape).  Sections: header
 *    (dir, stack, disks, workload, rounds done of max, seed, how it
 *    ended, alpha per look), the arms, one row per action and arm (n,
 *    cold, runt-min/avg/max, median with its CI, median ratio with its CI
 *    or "baseline", verdict), per arm the load (MiB/s with CI, worst
 *    stall, runs, failed runs), the ranking (best first, scores, arms that
 *    starve the load), the recommendation, the rule, the messages.
 *  - compare_report_json() / compare_report_csv(): path "-" is stdout;
 *    any other path is written to a temporary file next to it (PATH.tmpXXXXXX,
 *    fsync'ed, mode 0644) and renamed over PATH, so a reader never sees
 *    half a file.  0, or -errno with a message naming the path in err
 *    (-ENOMEM: JSON could not be built).
 *    JSON: {"brisk_version", "kind": "compare", "format_version": 1, dir,
 *    stack, disks, workload, machine (machine_json(): hostname,
 *    kernel, machine_id, the leaf disks behind dir with class, model,
 *    firmware and the scheduler as read when the JSON is written, after
 *    every setting was put back: the current arm's), seed, rounds {done,
 *    max}, looks, looks_taken,
 *    alpha, alpha_look, stopped_early, stop_signal ("SIGINT" or null),
 *    stop_requested, started (s since the epoch or null), elapsed_s, arms
 *    [{index, name, label, settings, runs, failed_runs, load_mibps {est,
 *    lo, hi}, worst_stall_ms, score, load_ok, actions {ACTION: {n, cold,
 *    warm, timeouts, errors, min, mean, max, p50/p90/p99/max_ci {est, lo,
 *    hi}, ratio_p50/ratio_p90 {est, lo, hi}, p, p_adjusted, verdict
 *    ("baseline" for arm 0, else stats_verdict_name()), settled}}}],
 *    ranking [{arm, label, settings, score, load_ok}] best first,
 *    recommendation {arm (null: none), text}, rule, verdicts [{arm,
 *    action, verdict, ratio_p50}] (arms 1.., every action), runs [{arm,
 *    round, order, t_s, dur_s, load_mibps, worst_stall_ms, settle_s,
 *    settle_timeout, settle_left_mib, failed, note}], samples [{arm,
 *    round, order, run, action, ms, cold, timeout, err, t_s}], messages}.
 *    CSV: a header line, then one row per sample:
 *    arm,arm_label,round,order,run,action,ms,cold,timeout,err,t_s; the
 *    text fields (arm_label, action) are csv_text() cells (double-quoted,
 *    a quote doubled, control bytes escaped, a formula's first character
 *    behind an apostrophe).
 *  - compare_report_save(): the recommended arm's (r->best) settings as
 *    the profile NAME in the user directory (profile_user_dir(), created
 *    when missing), ready for `brisk export NAME --format udev`.  A
 *    setting every disk of the arm has with one value (and vm.*) goes
 *    under [settings]; one that differs between disks goes under the
 *    disks' classes ([settings rotational] ...; the class of a disk as
 *    devclass_of() decides it from the probed device).  The file
 *    starts with a comment: the comparison's date (UTC), the machine
 *    (uname nodename, release), dir, stack, disks (models, firmware),
 *    workload, the arm, and its figures (median ratio with CI and verdict
 *    per action, load MiB/s against the baseline's) — clean text, lines
 *    of at most COMPARE_REPORT_COLS.  The file is written to a temporary
 *    file, read back with profile_parse_file() and compared with
 *    profile_equal() before it is moved into place (without force: only
 *    when NAME does not exist, atomically).  0; -ENODATA nothing to save
 *    (no recommended arm, or it sets nothing: a result, not a failure);
 *    -ENOENT no HOME/XDG_CONFIG_HOME; -EINVAL a bad NAME, settings that
 *    differ between disks of one class or that a profile cannot hold; -EEXIST NAME exists and force is 0;
 *    -ENOMEM; -errno when the file cannot be written.  err says which
 *    and what to do.
 */
#ifndef BRISK_COMPARE_REPORT_H
#define BRISK_COMPARE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "compare.h"

#define COMPARE_REPORT_COLS 100
#define COMPARE_REPORT_FORMAT_VERSION 1

void compare_report_text(FILE *f, const struct compare_result *r);
int compare_report_json(const struct compare_result *r, const char *path, char *err,
			size_t errlen);
int compare_report_csv(const struct compare_result *r, const char *path, char *err,
		       size_t errlen);
int compare_report_save(const struct compare_result *r, const char *name, int force,
			char *err, size_t errlen);

#endif
