#!/usr/bin/python3
"""gen-fleet.py DIR HOSTS BYTES [ARMS [ACTIONS [SEED]]]

Writes HOSTS `brisk compare --json` results of about BYTES bytes each (at
most BYTES), laid out as the playbook lays them out: DIR/HOST/STAMP-compare.json
and DIR/HOST/machine-id.  Each result compares the disk's own mq-deadline
with ARMS - 1 settings (default 2 arms) on ACTIONS actions (default 2:
ssh-like, save); its samples are lognormal around a per-host median, the
second arm 0.8 times the first, as many as fill BYTES, spread evenly over
the arms and actions, each with only the fields `brisk report` reads (the
most samples a file of that size can hold).  For tests/bench/report_cost.sh and the cost tests of
`brisk report`: the figures mean nothing, the sizes do.
"""
import hashlib
import json
import os
import random
import sys

ARM_SETTINGS = ["", "scheduler=bfq", "scheduler=kyber", "scheduler=none",
                "scheduler=bfq low_latency=0", "scheduler=bfq slice_idle=0",
                "scheduler=kyber read_lat_nsec=1000000", "scheduler=mq-deadline fifo_batch=8"]
ACTIONS = ["ssh-like", "save", "ls", "exec"]


def result(host, nbytes, arms, actions, rnd):
    mid = hashlib.md5(host.encode()).hexdigest()
    doc = {
        "format_version": 1, "kind": "compare", "brisk_version": "0.1.0",
        "workload": "load seq-write:size=600m; actions " + ",".join(actions),
        "machine": {"hostname": host, "kernel": "6.1.0", "machine_id": mid,
                    "disks": [{"name": "sda", "class": "rotational",
                               "model": "WDC WD10EZEX-08WN4A0", "vendor": "ATA",
                               "firmware": "01.01A01", "transport": "sata",
                               "rotational": True, "scheduler": "mq-deadline"}]},
        "arms": [{"index": i, "settings": ARM_SETTINGS[i], "load_mibps": {"est": 100.0}}
                 for i in range(arms)],
        "samples": [],
    }
    head = len(json.dumps(doc, separators=(",", ":")))
    base = 20 * rnd.lognormvariate(0, 0.3)
    out, size, i = [], head, 0
    while True:
        arm, act = i % arms, actions[(i // arms) % len(actions)]
        s = {"arm": arm, "action": act,
             "ms": round(base * (0.8 if arm else 1) * rnd.lognormvariate(0, 0.5), 3),
             "cold": True, "timeout": False, "err": 0}
        t = json.dumps(s, separators=(",", ":"))
        if size + len(t) + 2 > nbytes:
            break
        out.append(s)
        size += len(t) + 2
        i += 1
    doc["samples"] = out
    return mid, json.dumps(doc, separators=(",", ":"))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    d, hosts, nbytes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    arms = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    nact = int(sys.argv[5]) if len(sys.argv) > 5 else 2
    rnd = random.Random(int(sys.argv[6]) if len(sys.argv) > 6 else 1)
    for h in range(hosts):
        host = "h%04d" % h
        os.makedirs(os.path.join(d, host), exist_ok=True)
        mid, text = result(host, nbytes, arms, ACTIONS[:nact], rnd)
        with open(os.path.join(d, host, "machine-id"), "w") as f:
            f.write(mid + "\n")
        with open(os.path.join(d, host, "20261204T010000Z-compare.json"), "w") as f:
            f.write(text)


main()
