; startup-under-readers — program start-up while 10 sequential readers
; stream from the disk, as in the BFQ start-up benchmarks.  The readers
; evict what they read, so they keep reaching the disk.
; The mixed variant (5 readers + 5 writers) is startup-under-mixed.

[profile]
name = startup-under-readers
description = Program start-up under 10 sequential readers (BFQ start-up benchmark)

[load readers]
rw = read
bs = 1m
size = 256m
numjobs = 10

[action start]
type = exec
interval = 1s
