; copy-and-launch — copying a big file while programs start.
; A copy is a sequential reader and a sequential writer running together;
; the file written grows until the run ends (the free-space floor applies).

[profile]
name = copy-and-launch
description = A big file copy (1 MiB reads and writes) while programs start and directories are listed

[load copy-read]
rw = read
bs = 1m
size = 1g

[load copy-write]
rw = write
bs = 1m

[action start]
type = exec
interval = 2s

[action list]
type = ls
nrfiles = 2000
interval = 2s
