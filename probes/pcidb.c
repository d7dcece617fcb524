#include "pcidb.h"

#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <pci/pci.h>

static struct pci_access *pacc;
static int pacc_broken;       /* libpci failed once: never call it again */
static sigjmp_buf pacc_escape;

/* libpci reports through callbacks; a probe must not print.  Warnings (such
 * as a missing pci.ids) are ignored: the lookup then simply fails.  error()
 * is used by libpci for allocation failure and must not return: it jumps
 * back into pcidb_name(), which reports -ENOMEM (libpci's state is then
 * unknown, so it is left alone, leaked, for the rest of the process). */
static void pcidb_quiet(char *msg, ...)
{
	(void)msg;
}

static void __attribute__((noreturn)) pcidb_fatal(char *msg, ...)
{
	(void)msg;
	siglongjmp(pacc_escape, 1);
}

int pcidb_name(unsigned vendor, unsigned device, char *buf, size_t len)
{
	if (!len)
		return -EINVAL;
	if (pacc_broken)
		return -ENOMEM;
	/* volatile: read after a longjmp back here */
	const char *volatile r = NULL;
	char tmp[512];
	if (sigsetjmp(pacc_escape, 0)) {
		pacc_broken = 1;
		pacc = NULL;
		return -ENOMEM;
	}
	if (!pacc) {
		pacc = pci_alloc();
		if (!pacc)
			return -ENOMEM;
		pacc->error = pcidb_fatal;
		pacc->warning = pcidb_quiet;
		pacc->debug = pcidb_quiet;
	}
	r = pci_lookup_name(pacc, tmp, sizeof(tmp),
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
