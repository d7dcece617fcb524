/* kstat parsers and rates on known text, plus a read of the live files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <unistd.h>
#include <cmocka.h>

#include "kstat.h"
#include "sysfs.h"

static void test_parse_disk(void **state)
{
	(void)state;
	struct kstat_disk d;
	/* 17 fields, as a 5.5+ kernel prints them */
	assert_int_equal(kstat_parse_disk("   33304     7153  2339290    14445     9475     6316"
					  "   658000     3551        2     6960    18567     5585"
					  "       76  2290456      467     1653      103\n", &d), 0);
	assert_int_equal(d.rd_ios, 33304);
	assert_int_equal(d.rd_sectors, 2339290);
	assert_int_equal(d.wr_ios, 9475);
	assert_int_equal(d.wr_sectors, 658000);
	assert_int_equal(d.in_flight, 2);
	assert_int_equal(d.io_ticks_ms, 6960);
	assert_int_equal(d.time_in_queue_ms, 18567);
	assert_int_equal(kstat_parse_disk("1 2 3", &d), -EINVAL);
}

static void test_rates(void **state)
{
	(void)state;
	struct kstat_disk a = { .rd_ios = 100, .rd_sectors = 0, .wr_ios = 0, .wr_sectors = 2048,
				.io_ticks_ms = 1000, .time_in_queue_ms = 500 };
	struct kstat_disk b = a;
	b.rd_ios += 300;               /* over 2 s */
	b.rd_sectors += 4096;          /* 2 MiB read */
	b.wr_ios += 50;
	b.wr_sectors += 8192;          /* 4 MiB written */
	b.io_ticks_ms += 500;          /* busy a quarter of the time */
	b.time_in_queue_ms += 3000;    /* 1.5 requests in the queue on average */
	struct kstat_rates r;
	kstat_disk_rates(&a, &b, 2000000000ull, &r);
	assert_float_equal(r.rd_iops, 150, 1e-9);
	assert_float_equal(r.wr_iops, 25, 1e-9);
	assert_float_equal(r.rd_mbps, 1, 1e-9);
	assert_float_equal(r.wr_mbps, 2, 1e-9);
	assert_float_equal(r.util_pct, 25, 1e-9);
	assert_float_equal(r.avg_queue, 1.5, 1e-9);
	/* counters that went backwards (device re-created) give zero, not junk */
	kstat_disk_rates(&b, &a, 1000000000ull, &r);
	assert_float_equal(r.rd_iops, 0, 0);
	assert_float_equal(r.util_pct, 0, 0);
	kstat_disk_rates(&a, &b, 0, &r);
	assert_float_equal(r.wr_mbps, 0, 0);
}

static void test_parse_psi(void **state)
{
	(void)state;
	struct kstat_psi p;
	assert_int_equal(kstat_parse_psi("some avg10=1.50 avg60=0.10 avg300=0.49 total=4486496\n"
					 "full avg10=0.25 avg60=0.10 avg300=0.46 total=4247107\n", &p), 0);
	assert_float_equal(p.some.avg10, 1.5, 1e-9);
	assert_float_equal(p.some.avg300, 0.49, 1e-9);
	assert_int_equal(p.some.total_ns, 4486496000ull);
	assert_float_equal(p.full.avg10, 0.25, 1e-9);
	assert_int_equal(p.full.total_ns, 4247107000ull);
	/* pre-5.2 kernels have no "full" line for io */
	assert_int_equal(kstat_parse_psi("some avg10=0.00 avg60=0.00 avg300=0.00 total=7\n", &p), 0);
	assert_int_equal(p.some.total_ns, 7000);
	assert_int_equal(p.full.total_ns, 0);
	assert_int_equal(kstat_parse_psi("garbage", &p), -EINVAL);
}

static void test_parse_meminfo(void **state)
{
	(void)state;
	struct kstat_mem m;
	assert_int_equal(kstat_parse_meminfo("MemTotal:       24683560 kB\n"
					     "Dirty:              1234 kB\n"
					     "Writeback:            56 kB\n"
					     "WritebackTmp:          9 kB\n", &m), 0);
	assert_int_equal(m.dirty, 1234 * 1024);
	assert_int_equal(m.writeback, 56 * 1024);
	assert_int_equal(kstat_parse_meminfo("MemTotal: 1 kB\n", &m), -ENOENT);
	/* kB that do not fit 64 bits as bytes */
	assert_int_equal(kstat_parse_meminfo("Dirty: 18446744073709551 kB\nWriteback: 0 kB\n", &m),
			 -EINVAL);
}

static void test_parse_io(void **state)
{
	(void)state;
	uint64_t rb = 7;
	assert_int_equal(kstat_parse_io("rchar: 4041\nwchar: 10\nsyscr: 9\nsyscw: 1\n"
					"read_bytes: 1486848\nwrite_bytes: 0\n"
					"cancelled_write_bytes: 0\n", &rb), 0);
	assert_int_equal(rb, 1486848);
	assert_int_equal(kstat_parse_io("rchar: 4041\n", &rb), -ENOENT);
	assert_int_equal(kstat_parse_io("read_bytes: x\n", &rb), -EINVAL);
	/* this process: task I/O accounting is on in the kernels we run on */
	assert_int_equal(kstat_self_read_bytes(&rb), 0);
}

static void test_live(void **state)
{
	(void)state;
	struct kstat_mem m;
	assert_int_equal(kstat_mem_read(&m), 0);
	struct kstat_vm_dirty v;
	assert_int_equal(kstat_vm_dirty_read(&v), 0);
	assert_true(v.ratio >= 0 || v.bytes >= 0);
	struct kstat_psi p;
	int rc = kstat_psi_read(&p);
	assert_true(rc == 0 || rc == -ENOENT || rc == -EOPNOTSUPP);
	struct kstat_disk d;
	assert_int_equal(kstat_disk_read("no-such-disk", &d), -ENOENT);
	if (sysfs_exists("/sys/class/block/vda") == 1 || access("/sys/class/block/vda", F_OK) == 0)
		assert_int_equal(kstat_disk_read("vda", &d), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_disk),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_parse_psi),
		cmocka_unit_test(test_parse_meminfo),
		cmocka_unit_test(test_parse_io),
		cmocka_unit_test(test_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
