#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (test/fuzz/corpus/<target>/seed-*): small,
meaningful inputs that each reach deep into a target, so the fuzzer mutates from working
cases. Run from anywhere: python3 test/fuzz/seeds.py. The byte layouts follow the readers in
fuzz.h and each target's comment; crash-* files in the corpora are reproducers, not seeds,
and are left alone."""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


# ---- plan: fz_dim small positive v (1..32) is 0x60 + v - 1; 0 is 0x00. ----
def dim(v):
    assert 0 <= v <= 32
    return bytes([0 if v == 0 else 0x60 + v - 1])


def tensor4(n, c, h, w):
    return b"\x00" + dim(n) + dim(c) + dim(h) + dim(w)


ONE, ZERO = b"\x01", b"\x00"  # fz_double selectors for 1.0 and 0.0


def conv(k, c, fy, fx, pad=0, stride=1, dil=1):
    # op byte 0 (CreateOpConvForward), alpha 1, beta flag 0, set_conv (how 0: 2-d), filter
    return (b"\x00" + ONE + b"\x00" + b"\x00" + dim(pad) + dim(pad) + dim(stride) + dim(stride)
            + dim(dil) + dim(dil) + tensor4(k, c, fy, fx))


def bias(k):
    return b"\x02" + ONE + b"\x00" + tensor4(1, k, 1, 1)


def bn(mode):
    return b"\x03" + ONE + b"\x00" + bytes([mode]) + b"\x00" + b"\x03"  # derived; eps 1e-5


def act(mode):
    return b"\x04" + ONE + b"\x00" + bytes([mode]) + ONE + ZERO + ONE


def add():
    return b"\x08" + ONE + b"\x00" + b"\x00"  # z of the running shape


def plan(x, ops, device=0x0a, cfg=b""):
    head = x + b"\x03" + ONE + ZERO + ONE + b"\x00" + bytes([len(ops)])
    return head + b"".join(ops) + bytes([device, len(cfg)]) + cfg


x = tensor4(1, 3, 5, 7)
write("plan", "cbna", plan(x, [conv(4, 3, 3, 3, pad=1), bias(4), bn(1), act(3)]))
write("plan", "cba", plan(x, [conv(4, 3, 3, 3), bias(4), act(8)]))
write("plan", "cbnza", plan(x, [conv(4, 3, 3, 3, pad=1), bias(4), bn(1), add(), act(3)]))
write("plan", "cna_peract", plan(x, [conv(2, 3, 1, 1), bn(0), act(9)]))
write("plan", "ca_strided", plan(tensor4(2, 4, 9, 11), [conv(5, 4, 3, 3, pad=1, stride=2), act(1)]))
write("plan", "c_dilated", plan(tensor4(1, 2, 13, 13), [conv(3, 2, 3, 3, pad=2, dil=2)], cfg=b"TILE=8"))
write("plan", "c_5x5", plan(tensor4(1, 3, 8, 8), [conv(6, 3, 5, 5, pad=2)]))
write("plan", "cb_1x1", plan(tensor4(1, 8, 7, 7), [conv(16, 8, 1, 1), bias(16)],
                             cfg=b"MT=16,NT=16,KT=16,TM=4,TN=4"))
write("plan", "na", plan(x, [bn(1), act(3)]))
write("plan", "bna", plan(x, [bias(3), bn(1), act(2)]))
write("plan", "ba", plan(x, [bias(3), act(7)]))
write("plan", "a_power", plan(x, [act(6)]))
write("plan", "b", plan(x, [bias(3)]))
write("plan", "bn", plan(x, [bn(0)]))
write("plan", "bad_order", plan(x, [act(3), conv(4, 3, 3, 3)]))
write("plan", "empty", plan(x, []))

# ---- finddb: a valid file from the shipped PoCL db, and broken variants ----
src = json.load(open(os.path.join(HERE, "..", "..", "finddb",
                                  "pthread-skylake-avx512-AMD_EPYC_2cu_3.1_debian.json")))
keys = sorted(src["records"])[:2]
small = {"format": "clfuse-finddb", "version": 1, "device": src["device"],
         "records": {k: src["records"][k][:2] for k in keys}}
text = json.dumps(small, indent=1, sort_keys=True).encode()
write("finddb", "valid", text)
write("finddb", "truncated", text[: len(text) // 2])
bad = dict(small, version=2)
write("finddb", "version2", json.dumps(bad).encode())
entries = small["records"][keys[0]]
dup = dict(small, records={keys[0]: entries + entries + [dict(entries[0], time_ms=-1.0)]})
write("finddb", "duplicates", json.dumps(dup).encode())
odd = dict(small, records={keys[0]: [dict(entries[0], workspace=2 ** 60, time_ms="x"),
                                     {"solver": ""}, 7]})
write("finddb", "bad_entries", json.dumps(odd).encode())
write("finddb", "empty_records", json.dumps(dict(small, records={})).encode())

# ---- cache: mode byte, then the file (magic, version, hash, key len, payload len,
#      checksum, payload); mode 7 lets the harness fill hash, lengths and checksum in ----
def entry(payload, version=1):
    return (b"CLFUSEBN" + struct.pack("<I", version) + b"\0" * 16 + struct.pack("<QQQ", 0, 0, 0)
            + payload)


write("cache", "valid", b"\x07" + entry(b"\x7fELF binary bytes"))
write("cache", "bad_checksum", b"\x03" + entry(b"payload"))
write("cache", "bad_length", b"\x05" + entry(b"payload"))
write("cache", "bad_key", b"\x06" + entry(b"payload"))
write("cache", "old_version", b"\x07" + entry(b"payload", version=0))
write("cache", "header_only", b"\x07" + entry(b""))
write("cache", "short", b"\x07CLFUSEBN\x01")

# ---- driver_args: first byte's low bit: 1 conv, 0 CBAInfer; arguments split at NUL ----
def args(conv, *a):
    return bytes([conv]) + b"\0".join(x.encode() for x in a)


write("driver_args", "cba", args(0, "-n", "1", "-c", "8", "-H", "7", "-W", "9", "-k", "4",
                                 "-F", "CBNA", "-m", "3", "-A", "0.5", "-i", "2", "-V", "1"))
write("driver_args", "cba_mode", args(0, "-F", "4", "-M", "1", "-z", "1", "-G", "2.5e0"))
write("driver_args", "cba_cluster", args(0, "-n1", "-c3", "-Fcba"))
write("driver_args", "cba_bad", args(0, "-F", "99", "-x"))
write("driver_args", "conv", args(1, "-n", "2", "-c", "3", "-k", "8", "-S", "ConvDirectTiled",
                                  "-s", "1", "-t", "1"))
write("driver_args", "conv_id", args(1, "-S", "3", "-F", "1", "-i", "1"))
write("driver_args", "conv_bad", args(1, "-S", "nosuch", "extra"))
write("driver_args", "help", args(1, "-h"))
