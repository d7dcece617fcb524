; copy-to-stick — copying a big file from the home disk to a USB stick
; while you work on the home disk.  The copy reads its source in the test
; directory (your home: brisk makes a 4 GiB file there, on the home disk)
; and writes the copy where --load-dir points (the stick), as cp does, over
; and over; the actions run in the test directory.  A save is a photo's
; 8 MiB, written and fsync'ed: a write big enough to meet the dirty limits.
; 4 GiB is more than the page cache holds dirty on most desktops, so the
; copy meets the dirty limits as a real one does.  Run it as
;   sudo brisk run ~ --profile copy-to-stick --load-dir /media/$USER/STICK
; (without --load-dir the copy stays on the home disk).

[profile]
name = copy-to-stick
description = A 4 GiB copy from the home disk to a USB stick (--load-dir) while programs start, directories are listed, a remote shell reads and 8 MiB files are saved

[load copy]
rw = copy
bs = 1m
size = 4g

[action start]
type = exec
interval = 2s

[action list]
type = ls
nrfiles = 2000
interval = 2s

[action remote]
type = ssh-like
interval = 2s

[action save]
type = save
size = 8m
interval = 2s
