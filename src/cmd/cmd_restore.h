/* cmd_restore — put back the journaled originals of dead sessions.
 *
 *   brisk restore [--dry-run] [--verbose]
 *
 * Every journal of a session that is no longer running (`brisk set`
 * changes, killed runs), newest first; stale lab disks are taken apart
 * first.  Exit 1 if some value could not be restored or a journal was
 * refused as untrusted.  See brisk-set(1).
 */
#ifndef BRISK_CMD_RESTORE_H
#define BRISK_CMD_RESTORE_H

int cmd_restore_main(int argc, char **argv);

#endif
