/* progcopy — a program and every file it maps at start, copied into the
 * work area so that starting it reads only the file system under test.
 *
 * The exec action's default program is copied, not run in place: run from
 * the root file system it would time that disk, whatever DIR is.  The copy
 * holds, under DIR/.brisk-X/prog/:
 *
 *   ld.so           the program's ELF interpreter (PT_INTERP)
 *   bin/NAME        the program
 *   lib/SONAME      every DT_NEEDED library, resolved recursively as ld.so
 *                   would (DT_RPATH/DT_RUNPATH with $ORIGIN, then the
 *                   loader's cache of ld.so.conf's directories as
 *                   `ldconfig -p` prints it, then the system
 *                   directories), each of this machine's class
 *   lib/pythonX.Y/  (python) the modules a fixed import list loads: .pyc,
 *                   their .py (mtimes kept, so the .pyc stay valid) and
 *                   extension modules, with their libraries in lib/
 *
 * and it is started as "./ld.so --library-path lib /proc/self/cwd/bin/NAME
 * ARGS" from prog/ (the sample's cwd: a path the user the actions run as
 * can resolve, though the work area's own path is closed to that user;
 * python finds its standard library from it), with an environment
 * that keeps the program off other file systems (LC_ALL=C, TZ=UTC0,
 * OPENSSL_CONF=/dev/null; python: -I -S -B -X utf8).
 *
 * Which program: /usr/bin/python3 (the distribution's, never one found in
 * PATH: pyenv's shims are scripts in a home directory) importing
 * PROGCOPY_PY_IMPORTS; when it is missing or cannot be copied, ls
 * (/usr/bin/ls --version).  The module list comes from running the real
 * interpreter once (isolated, writing nothing, as the user as says: see
 * child_output) and asking it which files its modules came from; paths
 * outside its standard library are refused.
 *
 * Contract:
 *  - ELF files are untrusted input: progcopy_elf_parse() checks every
 *    offset, size and string against the image and refuses anything out of
 *    bounds, wrongly sized or unterminated with -ENOEXEC; it never reads
 *    outside buf.  Only images of this machine's byte order are read.
 *  - Files are created only below the directory workfd (kept, not owned):
 *    mkdirat + openat(O_CREAT|O_EXCL|O_NOFOLLOW), directories opened
 *    O_DIRECTORY|O_NOFOLLOW.  Sources are opened O_NOFOLLOW after realpath
 *    and must be regular files of at most PROGCOPY_MAX_FILE bytes.  They
 *    are not read whole into memory: an ELF source only root can write
 *    is mapped for the parse (any other is read, as one that changed
 *    under the map would fault brisk), every copy streams through 64 KiB.
 *  - Modes, whatever the umask: directories 0755, the interpreter and the
 *    program 0755, every other file 0644 (the program starts as the user
 *    the actions run as, who reaches them from prog/; the 0700 work area
 *    around keeps everyone else out).
 *  - The copies are written back (syncfs) before progcopy_make() returns:
 *    dirty pages cannot be evicted, so a copy still dirty would be warm.
 *  - 0, or -errno with a message in err (nothing is removed: the work area
 *    goes with the session).
 */
#ifndef BRISK_PROGCOPY_H
#define BRISK_PROGCOPY_H

#include <stddef.h>
#include <stdint.h>

#define PROGCOPY_DIR "prog"
#define PROGCOPY_MAX_FILE (256ull << 20)
#define PROGCOPY_MAX_FILES 4096
#define PROGCOPY_MAX_NEEDED 256
#define PROGCOPY_PY_IMPORTS \
	"json, email.parser, email.policy, http.client, sqlite3, xml.dom.minidom, " \
	"xml.etree.ElementTree, logging, argparse, decimal, datetime, urllib.request, ssl, " \
	"csv, unittest, asyncio, tarfile, zipfile, gettext, locale, subprocess, pathlib, " \
	"uuid, hashlib, difflib, pprint, html.parser, configparser, tempfile, shutil, " \
	"inspect, dataclasses, statistics, fractions, calendar, pickle, socket, " \
	"multiprocessing, ctypes, curses"

/* What an ELF image asks of the loader.  Strings point into the image
 * given to progcopy_elf_parse() (valid while it is). */
struct progcopy_elf {
	int is64;
	unsigned machine;                 /* e_machine */
	unsigned type;                    /* e_type: ET_EXEC, ET_DYN */
	const char *interp;               /* PT_INTERP, or NULL */
	const char *needed[PROGCOPY_MAX_NEEDED];
	size_t n_needed;
	const char *runpath;              /* DT_RUNPATH, or NULL */
	const char *rpath;                /* DT_RPATH, or NULL */
};

/* Parse an ELF image of len bytes.  0; -ENOEXEC when it is not ELF of this
 * byte order or anything in it is out of bounds or malformed; -E2BIG with
 * more than PROGCOPY_MAX_NEEDED libraries. */
int progcopy_elf_parse(const unsigned char *buf, size_t len, struct progcopy_elf *out);

struct progcopy {
	char name[64];          /* "python3.11", "ls" */
	char what[160];         /* the command in words, for the report */
	char why_fallback[200]; /* why python was not used, or "" */
	char **argv;            /* relative to workfd/prog */
	char **envp;
	char **files;           /* every copied file, relative to workfd */
	size_t n_files;
	uint64_t bytes;         /* their size */
};

struct child_cred;
/* Copy the default program into workfd/prog and fill pc.  0 or -errno. */
int progcopy_make(struct progcopy *pc, int workfd, const struct child_cred *as, char *err,
		  size_t errlen);
/* Copy one program (absolute path, ELF) with its libraries and interpreter;
 * argv after the program's name in args (NULL-terminated).  For tests and
 * the fallback. */
int progcopy_make_program(struct progcopy *pc, int workfd, const char *path,
			  const char *const *args, char *err, size_t errlen);
void progcopy_free(struct progcopy *pc);

#endif
