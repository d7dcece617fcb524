/* cmd_restore — put back the journaled originals of dead sessions.
 *
 *   brisk restore [--dry-run] [--verbose] [--json]
 *
 * Every journal of a session that is no longer running (`brisk set`
 * changes, killed runs), newest first; stale lab disks are taken apart
 * first.  Exit (exitcode.h) 1 if some value could not be restored or a
 * journal was refused as untrusted; 4 values to restore without root;
 * --dry-run: 5 when a value would be restored, 0 when none.  --json (-J):
 * one document on stdout (format_version, kind "restore", each value's
 * outcome as journal_restore decides it, stale locks, leftovers,
 * refusals).  See brisk-set(1).
 */
#ifndef BRISK_CMD_RESTORE_H
#define BRISK_CMD_RESTORE_H

int cmd_restore_main(int argc, char **argv);

#endif
