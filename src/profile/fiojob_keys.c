/* fiojob_keys — THE table of fio keys brisk knows (brisk-profile(5)'s
 * table is tested equal to it), and the import's --scale value.  Contracts
 * in fiojob.h and fiojob_priv.h. */
#include "fiojob.h"
#include "fiojob_priv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HON FIOJOB_HONOURED
#define HARM FIOJOB_HARMLESS
#define REF FIOJOB_REFUSED
#define SAME_AS_FIO_REPORTING "changes only fio's own reporting; brisk reports its own figures"
#define NO_DEVICE "brisk works on files in its work area, never on a device or its zones"
#define NO_VERIFY "brisk does not check data; fio's verify reads back what it wrote: more I/O"
#define SCHEDULE "brisk runs loads side by side (startdelay delays one); none waits for " \
	"another"
#define CPU_PINNING "fio's CPU pinning; brisk's processes run where the kernel puts them"
#define SUBMIT_AT_ONCE "brisk submits a request as soon as a slot frees"
#define INCOMPRESSIBLE "brisk writes incompressible data"
#define OWN_FILE_START "brisk loads start at the beginning of their own file"
#define NO_COMMANDS "brisk runs no commands around jobs"
#define ERROR_ENDS "an I/O error ends a brisk load and is reported"
#define ONE_PRIO "a brisk load has one I/O priority (prio, prioclass)"

/* THE table of fio keys (the man page's table is tested equal to it):
 * name, group, the slot an honoured value goes to, whether it may stand
 * bare (meaning 1), and what it maps to / the note / why it is refused. */
static const struct fiojob_key fiojob_keys[] = {
	{ "rw", HON, K_RW, 0, "write, read, randread, randwrite, rw, randrw; read:-8k skips" },
	{ "readwrite", HON, K_RW, 0, "as rw" },
	{ "bs", HON, K_BS, 0, "bytes per call (READ,WRITE: the job's direction)" },
	{ "blocksize", HON, K_BS, 0, "as bs" },
	{ "bsrange", HON, K_BSRANGE, 0, "a range of call sizes such as 4k-16k" },
	{ "blocksize_range", HON, K_BSRANGE, 0, "as bsrange" },
	{ "bssplit", HON, K_BSSPLIT, 0, "weighted call sizes such as 4k/60:64k/40" },
	{ "size", HON, K_SIZE, 0, "the file and the I/O amount (N% of filesize)" },
	{ "filesize", HON, K_FILESIZE, 0, "the file" },
	{ "io_size", HON, K_IOSIZE, 0, "the I/O amount" },
	{ "io_limit", HON, K_IOSIZE, 0, "as io_size" },
	{ "numjobs", HON, K_NUMJOBS, 0, "instances, each a process" },
	{ "startdelay", HON, K_STARTDELAY, 0, "when a load or a small random reader starts (A-B: "
	  "per load instance)" },
	{ "direct", HON, K_DIRECT, 1, "O_DIRECT" },
	{ "buffered", HON, K_BUFFERED, 1, "the opposite of direct" },
	{ "rate", HON, K_RATE, 0, "bytes per second per instance" },
	{ "fsync", HON, K_FSYNC, 0, "fsync after every N writes" },
	{ "prio", HON, K_PRIO, 0, "I/O priority level" },
	{ "prioclass", HON, K_PRIOCLASS, 0, "I/O priority class" },
	{ "loops", HON, K_LOOPS, 0, "the I/O amount times N; samples of a reader" },
	{ "runtime", HON, K_RUNTIME, 0, "the loaded phase ([global])" },
	{ "timeout", HON, K_RUNTIME, 0, "as runtime" },
	{ "ramp_time", HON, K_RAMP, 0, "the warm-up ([global])" },
	{ "directory", HON, K_DIRECTORY, 0, "the test directory ([global]); a job's own: its "
	  "load's directory (dir=)" },
	{ "ioengine", HON, K_IOENGINE, 0, "sync, psync, vsync, pvsync, pvsync2; libaio, io_uring, "
	  "posixaio run on io_uring" },
	{ "invalidate", HON, K_INVALIDATE, 1, "1: brisk evicts before it reads" },
	{ "time_based", HON, K_TIMEBASED, 1, "a load runs until the loaded phase ends" },
	{ "iodepth", HON, K_IODEPTH, 0, "requests in flight of an asynchronous load" },
	{ "nrfiles", HON, K_NRFILES, 0, "1: one file per instance" },
	{ "stonewall", HON, K_STONEWALL, 1, "a phase boundary: each group is its own run (--group)" },
	{ "wait_for_previous", HON, K_STONEWALL, 1, "as stonewall" },
	{ "thread", HON, K_THREAD, 1, "jobs run side by side; brisk's are processes, each its own "
	  "I/O context" },
	{ "rwmixread", HON, K_RWMIXREAD, 0, "% of a mixed load's calls that read" },
	{ "rwmixwrite", HON, K_RWMIXWRITE, 0, "% of a mixed load's calls that write" },
	{ "random_distribution", HON, K_DIST, 0, "random, zipf, pareto, normal, zoned offsets" },
	{ "rate_iops", HON, K_RATEIOPS, 0, "calls per second: rate= of N times the one bs" },
	{ "rate_poisson", HON, K_POISSON, 1, "Poisson arrivals at the rate's mean" },
	{ "flow", HON, K_FLOW, 0, "weight: a flow group's loads go in its ratio of calls" },
	{ "flow_id", HON, K_FLOWID, 0, "the flow group, 0-15" },
	{ "flow_sleep", HON, K_FLOWSLEEP, 0, "microseconds a held load sleeps" },
	{ "thinktime", HON, K_THINKTIME, 0, "a load's pause after its calls (bare: microseconds)" },
	{ "thinktime_spin", HON, K_THINKSPIN, 0, "of the pause, busy on the CPU" },
	{ "thinktime_blocks", HON, K_THINKBLOCKS, 0, "calls between the pauses" },
	{ "thinktime_blocks_type", HON, K_THINKTYPE, 0, "complete or issue: which calls count" },

	{ "name", HARM, K_NONE, 0, "fio's job name; brisk names a load after its section" },
	{ "description", HARM, K_NONE, 0, "fio's job description; the profile has its own" },
	{ "filename", HARM, K_NONE, 0, "brisk uses its own file in its work area (a device node is "
	  "refused)" },
	{ "filename_format", HARM, K_NONE, 0, "brisk names its own files in its work area" },
	{ "unlink", HARM, K_NONE, 1, "brisk removes its files at the end anyway" },
	{ "norandommap", HARM, K_NONE, 1, "brisk's random offsets may repeat, as with norandommap" },
	{ "randrepeat", HARM, K_NONE, 1, "brisk seeds its offsets per run (--seed)" },
	{ "random_generator", HARM, K_NONE, 0, "brisk draws offsets from its own generator" },
	{ "gtod_reduce", HARM, K_NONE, 1, "fio's clock-call saving; brisk times every call" },
	{ "group_reporting", HARM, K_NONE, 1, SAME_AS_FIO_REPORTING },
	{ "new_group", HARM, K_NONE, 1, SAME_AS_FIO_REPORTING },
	{ "write_bw_log", HARM, K_NONE, 1, SAME_AS_FIO_REPORTING },
	{ "write_lat_log", HARM, K_NONE, 1, SAME_AS_FIO_REPORTING },
	{ "write_iops_log", HARM, K_NONE, 1, SAME_AS_FIO_REPORTING },
	{ "write_hist_log", HARM, K_NONE, 1, SAME_AS_FIO_REPORTING },
	{ "log_avg_msec", HARM, K_NONE, 0, SAME_AS_FIO_REPORTING },
	{ "log_prio", HARM, K_NONE, 1, SAME_AS_FIO_REPORTING },
	{ "per_job_logs", HARM, K_NONE, 1, SAME_AS_FIO_REPORTING },
	{ "eta", HARM, K_NONE, 0, SAME_AS_FIO_REPORTING },
	{ "disable_lat", HARM, K_NONE, 1, SAME_AS_FIO_REPORTING },
	{ "disable_clat", HARM, K_NONE, 1, SAME_AS_FIO_REPORTING },
	{ "disable_slat", HARM, K_NONE, 1, SAME_AS_FIO_REPORTING },
	{ "clat_percentiles", HARM, K_NONE, 1, SAME_AS_FIO_REPORTING },
	{ "lat_percentiles", HARM, K_NONE, 1, SAME_AS_FIO_REPORTING },
	{ "percentile_list", HARM, K_NONE, 0, SAME_AS_FIO_REPORTING },
	{ "cpus_allowed", HARM, K_NONE, 0, CPU_PINNING },
	{ "cpus_allowed_policy", HARM, K_NONE, 0, CPU_PINNING },
	{ "fallocate", HARM, K_NONE, 0, "brisk lays out its own files" },
	{ "create_serialize", HARM, K_NONE, 1, "brisk lays out its own files before the run" },
	{ "allow_file_create", HARM, K_NONE, 1, "brisk creates its own files in its work area" },
	{ "iodepth_batch", HARM, K_NONE, 0, SUBMIT_AT_ONCE },
	{ "iodepth_batch_submit", HARM, K_NONE, 0, SUBMIT_AT_ONCE },
	{ "iodepth_batch_complete", HARM, K_NONE, 0, "brisk reaps each completion as it comes" },
	{ "overwrite", HARM, K_NONE, 1, "brisk's writers write over their own file" },
	{ "create_on_open", HARM, K_NONE, 1, "brisk opens its file when the load starts" },
	{ "io_submit_mode", HARM, K_NONE, 0, "how fio submits, not what reaches the disk" },
	{ "exitall", HARM, K_NONE, 1, "an end condition; brisk's loads run to the phase's end" },
	{ "ratemin", HARM, K_NONE, 0, "an end condition; brisk reports the rate reached" },
	{ "rate_min", HARM, K_NONE, 0, "as ratemin" },

	{ "zonemode", REF, K_NONE, 0, NO_DEVICE },
	{ "zonesize", REF, K_NONE, 0, NO_DEVICE },
	{ "zoneskip", REF, K_NONE, 0, NO_DEVICE },
	{ "max_open_zones", REF, K_NONE, 0, NO_DEVICE },
	{ "verify", REF, K_NONE, 0, NO_VERIFY },
	{ "do_verify", REF, K_NONE, 1, NO_VERIFY },
	{ "verify_backlog", REF, K_NONE, 0, NO_VERIFY },
	{ "verify_pattern", REF, K_NONE, 0, NO_VERIFY },
	{ "verify_interval", REF, K_NONE, 0, NO_VERIFY },
	{ "verify_fatal", REF, K_NONE, 1, NO_VERIFY },
	{ "verify_dump", REF, K_NONE, 1, NO_VERIFY },
	{ "verify_async", REF, K_NONE, 0, NO_VERIFY },
	{ "verify_write_sequence", REF, K_NONE, 0, NO_VERIFY },
	{ "rwmixcycle", REF, K_NONE, 0, "fio dropped it; brisk mixes calls by rwmixread" },
	{ "buffer_compress_percentage", REF, K_NONE, 0, INCOMPRESSIBLE },
	{ "dedupe_percentage", REF, K_NONE, 0, INCOMPRESSIBLE },
	{ "offset", REF, K_NONE, 0, OWN_FILE_START },
	{ "offset_increment", REF, K_NONE, 0, OWN_FILE_START },
	{ "wait_for", REF, K_NONE, 0, SCHEDULE },
	{ "exit_what", REF, K_NONE, 0, SCHEDULE },
	{ "number_ios", REF, K_NONE, 0, "brisk counts bytes (io_size), not calls" },
	{ "blockalign", REF, K_NONE, 0, "brisk aligns random offsets at 4 KiB" },
	{ "fill_device", REF, K_NONE, 1, "brisk's writers stop above the free-space floor (--floor)" },
	{ "sync", REF, K_NONE, 0, "brisk does not open files O_SYNC: use fsync=1" },
	{ "continue_on_error", REF, K_NONE, 0, ERROR_ENDS },
	{ "ignore_error", REF, K_NONE, 0, ERROR_ENDS },
	{ "exec_prerun", REF, K_NONE, 0, NO_COMMANDS },
	{ "exec_postrun", REF, K_NONE, 0, NO_COMMANDS },
	{ "cmdprio_percentage", REF, K_NONE, 0, ONE_PRIO },
	{ "cmdprio_class", REF, K_NONE, 0, ONE_PRIO },
	{ "cmdprio", REF, K_NONE, 0, ONE_PRIO },
	{ "cmdprio_bssplit", REF, K_NONE, 0, ONE_PRIO },
	{ "threads", REF, K_NONE, 0, "fio does not know it either (Bad option); fio's is thread" },
	{ "kb_base", REF, K_NONE, 0, "brisk reads k, KB and KiB as 1024 (fio's default kb_base)" },
};

#define N_KEYS (sizeof(fiojob_keys) / sizeof(fiojob_keys[0]))

size_t fiojob_key_count(void)
{
	return N_KEYS;
}

void fiojob_key_at(size_t i, const char **name, enum fiojob_group *group, const char **text)
{
	if (i >= N_KEYS)
		i = 0;
	*name = fiojob_keys[i].name;
	*group = fiojob_keys[i].group;
	*text = fiojob_keys[i].text;
}

const char *fiojob_group_name(enum fiojob_group g)
{
	return g == FIOJOB_HONOURED ? "honoured" : g == FIOJOB_HARMLESS ? "harmless" : "refused";
}

const struct fiojob_key *fiojob_key_find(const char *name)
{
	for (size_t i = 0; i < N_KEYS; i++)
		if (strcmp(fiojob_keys[i].name, name) == 0)
			return &fiojob_keys[i];
	return NULL;
}

int fiojob_parse_scale(const char *text, double *out)
{
	char *end;
	double v;
	const char *slash = strchr(text, '/');
	errno = 0;
	if (slash) {
		double a = strtod(text, &end);
		if (end != slash)
			return -EINVAL;
		double b = strtod(slash + 1, &end);
		if (*end || b == 0)
			return -EINVAL;
		v = a / b;
	} else {
		v = strtod(text, &end);
		if (end == text)
			return -EINVAL;
		if (strcmp(end, "%") == 0)
			v /= 100.0;
		else if (*end)
			return -EINVAL;
	}
	if (errno || !(v > 0) || v > 1 || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}
