; startup-under-mixed — program start-up while 5 sequential readers and
; 5 buffered sequential writers run, as in the BFQ start-up benchmarks.

[profile]
name = startup-under-mixed
description = Program start-up under 5 sequential readers and 5 writers (BFQ start-up benchmark)

[load readers]
rw = read
bs = 1m
size = 256m
numjobs = 5

[load writers]
rw = write
bs = 1m
numjobs = 5

[action start]
type = exec
interval = 1s
