; quick — the default check (what `brisk run` does without a profile).
; One buffered dd-like writer (1 MiB writes) fills the page cache and the
; disk queue while four interactive actions are timed with cold caches.
; See brisk-profile(5).

[profile]
name = quick
description = One buffered 1 MiB sequential writer; time a program start, ls, ssh-like reads, a save

[load writer]
rw = write
bs = 1m

[action start]
; exec + exit of a real program, its binary and libraries evicted first
type = exec

[action list]
; readdir + stat of a tree of files
type = ls
nrfiles = 2000

[action ssh]
; 4k-44k random reads covering 2 MiB of a 30 MiB file, as ssh does at login
type = ssh-like
bsrange = 4k-44k
size = 2m
filesize = 30m

[action save]
; write a small file and fsync it
type = save
size = 4k
