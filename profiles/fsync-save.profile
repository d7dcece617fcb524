; fsync-save — saving a document (write + fsync) while other programs do
; random writes: the case where an fsync waits behind a queue of writes.

[profile]
name = fsync-save
description = Save a small file with fsync while two random writers run

[load random-writers]
rw = randwrite
bs = 4k
size = 256m
numjobs = 2

[action save]
type = save
size = 4k
interval = 1s
