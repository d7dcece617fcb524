/* set_hold — a stand-in for a long-running brisk session (`brisk run`,
 * the dashboard) in tests: it takes the same path through the journal API.
 *
 *   set_hold [-x] [-k run|tui] DEVICE KEY=VALUE...
 *
 * Recovers stale journals (as main does at start), opens a session
 * journal, applies each KEY=VALUE to DEVICE (a kernel name; vm.* keys are
 * global) through journal_set(), prints "ready PID" and then waits for
 * SIGINT, SIGTERM or SIGHUP (-x: does not wait, like a normal exit).  Then
 * it restores everything (journal_restore), prints what it did and exits:
 * 0 when all was put back, 1 when not, 2 for bad arguments. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "journal.h"
#include "tunable.h"

int main(int argc, char **argv)
{
	int now = 0, c;
	enum journal_kind kind = JOURNAL_RUN;
	while ((c = getopt(argc, argv, "+xk:")) != -1) {
		if (c == 'x')
			now = 1;
		else if (c == 'k' && strcmp(optarg, "tui") == 0)
			kind = JOURNAL_TUI;
		else if (c != 'k' || strcmp(optarg, "run") != 0)
			return 2;
	}
	if (argc - optind < 2) {
		fprintf(stderr, "usage: set_hold [-x] [-k run|tui] DEVICE KEY=VALUE...\n");
		return 2;
	}
	const char *dev = argv[optind];
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);

	journal_recover_stale(stderr);
	struct journal *j;
	int rc = journal_open(kind, "set_hold", &j);
	if (rc < 0) {
		fprintf(stderr, "set_hold: journal: %s\n", strerror(-rc));
		return 1;
	}
	char sched_after[TUNABLE_SCHED_LEN] = "";
	int status = 0;
	for (int i = optind + 1; i < argc && status == 0; i++) {
		char keytext[TUNABLE_NAME_LEN], why[TUNABLE_WHY_LEN], canon[TUNABLE_VALUE_LEN];
		const char *eq = strchr(argv[i], '=');
		struct tunable_key key;
		if (!eq || (size_t)(eq - argv[i]) >= sizeof(keytext)) {
			status = 2;
			break;
		}
		memcpy(keytext, argv[i], (size_t)(eq - argv[i]));
		keytext[eq - argv[i]] = '\0';
		if (tunable_parse_key(keytext, &key, why, sizeof(why)) < 0 ||
		    tunable_check(dev, &key, eq + 1, sched_after[0] ? sched_after : NULL,
				  canon, sizeof(canon), why, sizeof(why)) < 0) {
			fprintf(stderr, "set_hold: %s\n", why);
			status = 2;
			break;
		}
		if (key.kind == TUNABLE_SCHEDULER)
			snprintf(sched_after, sizeof(sched_after), "%.31s", canon);
		struct tunable_result res;
		pid_t holder = 0;
		rc = journal_set(j, dev, &key, canon, &res, &holder);
		if (rc == -EBUSY) {
			fprintf(stderr, "set_hold: busy: held by pid %ld\n", (long)holder);
			status = 1;
		} else if (rc < 0) {
			fprintf(stderr, "set_hold: %s=%s: %s\n", key.name, canon, strerror(-rc));
			status = 1;
		} else {
			printf("set %s=%s (was %s)\n", key.name, res.readback, res.before);
		}
	}
	if (status == 0) {
		printf("ready %ld\n", (long)getpid());
		fflush(stdout);
		if (!now) {
			int sig = 0;
			sigwait(&set, &sig);
			printf("signal %d\n", sig);
		}
	}
	int left = journal_restore(j, journal_report_print, stdout);
	journal_close(j);
	printf("left %d\n", left);
	return status ? status : left ? 1 : 0;
}
