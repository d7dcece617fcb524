; lkml-ssh — Mathieu Desnoyers' ssh-like fio job from LKML, January 2009
; ("Re: [RFC PATCH] block: Fix bio merge induced high I/O latency"): one
; dd-like writer in 1 MiB writes over a 10 GB file and 41 ssh-like
; readers, each a fresh process reading 2 MiB in 4k-44k random reads from
; its own 30 MiB file, started at their own delays (4 s apart, then 200 s
; and 260 s).  In fio they are separate processes that overlap one another
; and the writer; their contention is the experiment, so they run
; concurrently here too (concurrency = 41: every reader may be in flight
; at once).  He measured 0.4 to 110 s per reader depending on the
; scheduler, and tabled runt-min/avg/max over the readers per scheduler:
; `brisk compare` prints those rows.
;
; fio's writer stops after 10 GB; here it writes its 10 GB region until
; the last reader has ended (wrapping early at the free-space floor on a
; smaller disk), so that every reader runs under the load.  The loaded
; phase lasts as long as the schedule: 260 s plus the last reader's time.
; For a few minutes on a lab disk, run the job file with its delays shrunk:
;   brisk run --fio profiles/lkml-ssh.fio --scale 1/4 DIR
; (--scale shrinks the start delays; the writer loops to the last reader.)

[profile]
name = lkml-ssh
description = LKML 2009: one 10 GB 1 MiB writer and 41 staggered ssh-like random readers, concurrent
concurrency = 41

[load job1]
rw = write
bs = 1m
size = 10g

[action file1]
type = ssh-like
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file2]
type = ssh-like
startdelay = 4s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file3]
type = ssh-like
startdelay = 8s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file4]
type = ssh-like
startdelay = 12s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file5]
type = ssh-like
startdelay = 16s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file6]
type = ssh-like
startdelay = 20s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file7]
type = ssh-like
startdelay = 24s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file8]
type = ssh-like
startdelay = 28s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file9]
type = ssh-like
startdelay = 32s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file10]
type = ssh-like
startdelay = 36s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file11]
type = ssh-like
startdelay = 40s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file12]
type = ssh-like
startdelay = 44s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file13]
type = ssh-like
startdelay = 48s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file14]
type = ssh-like
startdelay = 52s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file15]
type = ssh-like
startdelay = 56s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file16]
type = ssh-like
startdelay = 60s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file17]
type = ssh-like
startdelay = 64s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file18]
type = ssh-like
startdelay = 68s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file19]
type = ssh-like
startdelay = 72s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file20]
type = ssh-like
startdelay = 76s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file21]
type = ssh-like
startdelay = 80s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file22]
type = ssh-like
startdelay = 84s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file23]
type = ssh-like
startdelay = 88s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file24]
type = ssh-like
startdelay = 92s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file25]
type = ssh-like
startdelay = 96s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file26]
type = ssh-like
startdelay = 100s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file27]
type = ssh-like
startdelay = 104s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file28]
type = ssh-like
startdelay = 108s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file29]
type = ssh-like
startdelay = 112s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file30]
type = ssh-like
startdelay = 116s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file31]
type = ssh-like
startdelay = 120s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file32]
type = ssh-like
startdelay = 124s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file33]
type = ssh-like
startdelay = 128s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file34]
type = ssh-like
startdelay = 132s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file35]
type = ssh-like
startdelay = 134s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file36]
type = ssh-like
startdelay = 138s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file37]
type = ssh-like
startdelay = 142s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file38]
type = ssh-like
startdelay = 146s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file39]
type = ssh-like
startdelay = 150s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file40]
type = ssh-like
startdelay = 200s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m

[action file41]
type = ssh-like
startdelay = 260s
loops = 1
bsrange = 4k-44k
size = 2m
filesize = 30m
