#include "pcidb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pci/pci.h>

static struct pci_access *pacc;

/* libpci reports through callbacks; a probe must not print.  Warnings (such
 * as a missing pci.ids) are ignored: the lookup then simply fails.  error()
 * is only used by libpci for allocation failure and must not return. */
static void pcidb_quiet(char *msg, ...)
{
	(void)msg;
}

static void __attribute__((noreturn)) pcidb_fatal(char *msg, ...)
{
	(void)msg;
	abort();
}

int pcidb_name(unsigned vendor, unsigned device, char *buf, size_t len)
{
	if (!len)
		return -EINVAL;
	if (!pacc) {
		pacc = pci_alloc();
		if (!pacc)
			return -ENOMEM;
		pacc->error = pcidb_fatal;
		pacc->warning = pcidb_quiet;
		pacc->debug = pcidb_quiet;
	}
	char tmp[512];
	const char *r = pci_lookup_name(pacc, tmp, sizeof(tmp),
					PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE |
					PCI_LOOKUP_NO_NUMBERS,
					(int)vendor, (int)device);
	if (!r)
		return -ENOENT;
	size_t n = strlen(r);
	if (n >= len)
		n = len - 1;
	memcpy(buf, r, n);
	buf[n] = '\0';
	return 0;
}

void pcidb_close(void)
{
	if (pacc)
		pci_cleanup(pacc);
	pacc = NULL;
}
