/* labloop — a lab's loop device: attached to the FUSE file with direct
 * I/O, its queue set as the model says, its settings put back.
 *
 * Contract:
 *  - The loop device's settings that lab up changes (scheduler, and with
 *    it what a switch resets; queue/rotational; the bdi's strict_limit and
 *    max_ratio_fine, which holds max_bytes) are journaled before they are
 *    changed, like every other setting brisk changes: in a journal of kind
 *    lab (journal.h) whose name goes into the state file (journal=) before
 *    the first entry.  labloop_restore puts them back from it (lab down, a
 *    stale lab taken apart by lab up or `brisk restore`) and removes it.
 *    The orig_* fields of the state are what was found, for information.
 *  - The queue depth (the model's queue_depth): the loop driver takes 128
 *    requests; its hardware tag depth shrinks when queue/nr_requests is
 *    written while the scheduler is none, and stays when another scheduler
 *    is switched to.  So labloop_configure switches to none (journal_set:
 *    the scheduler found, its nr_requests and tunables are journaled),
 *    writes the depth as nr_requests (the kernel takes 4 at least,
 *    LABLOOP_MIN_DEPTH), then switches to the model's scheduler.  The tag
 *    depth found is kept in the state (orig_tag_depth: debugfs's
 *    hctx0/tags when debugfs is mounted, else the tag set's mq/0/nr_tags,
 *    saved before the change; when neither can be read the depth is left
 *    alone) and put back by labloop_restore before the
 *    journal: the journal cannot, because under none nr_requests reads the
 *    tag set's depth again (128) whatever the tags' depth, and the journal
 *    rewrites no value already in place; the depth is written as one less,
 *    then itself, under none (only while the device's diskseq is the one
 *    lab up saw), and the journal then puts the scheduler found back.
 *  - Only the loop device the state names is written: restoring checks
 *    each entry's diskseq, which changes at every attach, so a device
 *    that someone bound again after the lab lost it is left alone.
 *  - Nothing prints; 0 or -errno with a message in err.
 */
#ifndef BRISK_LABLOOP_H
#define BRISK_LABLOOP_H

#include <stddef.h>

#include "lab.h"

/* debugfs, where the hardware tag depth can be read. */
#define LABLOOP_DEBUGFS "/sys/kernel/debug"
/* The least nr_requests the kernel takes (BLKDEV_MIN_RQ). */
#define LABLOOP_MIN_DEPTH 4

/* "loop7" of "/dev/loop7". */
const char *labloop_base(const char *dev);
/* Is the loop device DEV ("/dev/loopN") bound to FILE? */
int labloop_bound_to(const char *dev, const char *file);
/* loop/dio of DEV: 1, 0, or -1 unknown. */
int labloop_dio(const char *dev);
/* The active scheduler of DEV ("" if none). */
void labloop_scheduler(const char *dev, char *active, size_t len);
/* The depth of the bitmap tags in the text of debugfs's
 * block/DEV/hctx0/tags ("bitmap_tags:" then "depth=N"): N, or -EINVAL. */
int labloop_parse_tags(const char *text);
/* The hardware tag depth of DEV's first hardware queue (debugfs): N, or
 * -errno (-ENOENT when debugfs is not mounted). */
int labloop_tag_depth(const char *dev);
/* Attach a free loop device to s->fusefile with direct I/O (recorded in
 * s->loop and saved first): its fd, held open until mounted, or -errno. */
int labloop_attach(struct lab_state *s, char *err, size_t errlen);
/* Journal, then set rotational, queue depth, scheduler and dirty limit per
 * model M. */
int labloop_configure(struct lab_state *s, const struct labmodel *m, char *err,
		      size_t errlen);
/* The loop device's settings back (labloop_restore); then, if it is still
 * bound to the lab's FUSE file, detach and wait until the kernel lets go.
 * -EBUSY when someone holds it open. */
int labloop_detach(const struct lab_state *s, char *err, size_t errlen);
/* Put back what labloop_configure changed, from the journal s->journal
 * (nothing when none was made); best effort, like the detach it precedes. */
void labloop_restore(const struct lab_state *s);

#endif
