; tiobench-like — threaded random reads and writes, as tiobench runs them;
; the report's "% over 2 s" and "% over 10 s" columns are tiobench's
; Lat% >2 s and >10 s.  The loads' own worst stalls are reported too.

[profile]
name = tiobench-like
description = 4 random readers and 4 random writers (4 KiB); latency over 2 s and 10 s
runtime = 60s

[load random-readers]
rw = randread
bs = 4k
size = 256m
numjobs = 4

[load random-writers]
rw = randwrite
bs = 4k
size = 256m
numjobs = 4

[action ssh]
type = ssh-like
bsrange = 4k-44k
size = 2m
filesize = 30m

[action save]
type = save
size = 4k
