/* iowhy_core — the few kernel types and BPF definitions iowhy.bpf.c uses,
 * instead of a vmlinux.h dumped from the build machine: the fields are
 * found at load time by CO-RE (preserve_access_index), so the object
 * does not depend on the kernel it was built on, and a package built
 * anywhere is the same bytes.  Only what the program reads is declared.
 */
#ifndef BRISK_IOWHY_CORE_H
#define BRISK_IOWHY_CORE_H

typedef signed char __s8;
typedef unsigned char __u8;
typedef short __s16;
typedef unsigned short __u16;
typedef int __s32;
typedef unsigned int __u32;
typedef long long __s64;
typedef unsigned long long __u64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
typedef _Bool bool;
#define true 1
#define false 0

enum bpf_map_type {
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_LRU_HASH = 9,
	BPF_MAP_TYPE_TASK_STORAGE = 29,
};

enum {
	BPF_ANY = 0,
	BPF_NOEXIST = 1,
	BPF_EXIST = 2,
	BPF_F_NO_PREALLOC = 1,
	BPF_F_NO_COMMON_LRU = 2,
	BPF_LOCAL_STORAGE_GET_F_CREATE = 1,
};

struct bpf_spin_lock {
	__u32 val;
};

#define TASK_RUNNING 0x0
#define TASK_UNINTERRUPTIBLE 0x2
#define TASK_DEAD 0x80
#define REQ_OP_MASK 0xff
#define REQ_OP_READ 0

struct task_struct {
	unsigned int __state;
	int pid;
	int tgid;
	char comm[16];
} __attribute__((preserve_access_index));

struct gendisk {
	int major;
	int first_minor;
} __attribute__((preserve_access_index));

struct request_queue {
	struct gendisk *disk;
} __attribute__((preserve_access_index));

struct request {
	struct request_queue *q;
	unsigned int cmd_flags;
	unsigned int __data_len;
} __attribute__((preserve_access_index));

struct bio;
struct bdi_writeback;
struct dirty_throttle_control;

#endif
