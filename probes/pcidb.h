/* pcidb — names of PCI devices from the pci.ids database, through libpci.
 *
 * Contract: pcidb_name() fills "Vendor Device" (e.g. "Red Hat, Inc. Virtio
 * 1.0 block device") and returns 0, or -ENOENT when the IDs are not in the
 * database (or no database is installed).  The database is loaded once, on
 * first use; pcidb_close() frees it.  Nothing prints, nothing aborts: when
 * libpci runs out of memory the lookup returns -ENOMEM, and so does every
 * later one.
 */
#ifndef BRISK_PCIDB_H
#define BRISK_PCIDB_H

#include <stddef.h>

int pcidb_name(unsigned vendor, unsigned device, char *buf, size_t len);
void pcidb_close(void);

#endif
