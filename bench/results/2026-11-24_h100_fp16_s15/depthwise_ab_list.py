import subprocess, sys
# name n c h w f s
L = """mnv3_16x112 1 16 112 112 3 1
mnv3_64x112s2 1 64 112 112 3 2
mnv3_72x56 1 72 56 56 3 1
mnv3_72x56_5s2 1 72 56 56 5 2
mnv3_120x28_5 1 120 28 28 5 1
mnv3_240x28s2 1 240 28 28 3 2
mnv3_200x14 1 200 14 14 3 1
mnv3_184x14 1 184 14 14 3 1
mnv3_480x14 1 480 14 14 3 1
mnv3_672x14 1 672 14 14 3 1
mnv3_960x7_5 1 960 7 7 5 1
eff_32x112 1 32 112 112 3 1
eff_144x56_5s2 1 144 56 56 5 2
eff_480x14_5 1 480 14 14 5 1
eff_672x14_5 1 672 14 14 5 1
eff_1152x7_5 1 1152 7 7 5 1
eff_1152x7 1 1152 7 7 3 1
b32_32x112 32 32 112 112 3 1
b8_72x56_5s2 8 72 56 56 5 2
b16_480x14_5 16 480 14 14 5 1
b32_960x7 32 960 7 7 3 1
b4_256x40 4 256 40 40 3 1
b2_128x80_5 2 128 80 80 5 1"""
rows = []
for line in L.splitlines():
    name, n, c, h, w, f, s = line.split(); n, c, h, w, f, s = map(int, (n, c, h, w, f, s))
    p = f // 2; oh = (h + 2*p - f)//s + 1; ow = (w + 2*p - f)//s + 1
    for bits, cmd in ((32, 'CBAInfer'), (16, 'CBAInferfp16')):
        key = "CBA:%d-%d-%d-%dx%d-%d-%d-%d-%d-%dx%d-%dx%d-1x1-0-NCHW-FP%d-F_g%d:act=3" % (c, h, w, f, f, c, oh, ow, n, p, p, s, s, bits, c)
        args = "-F 4 -n %d -c %d -H %d -W %d -k %d -x %d -y %d -p %d -q %d -u %d -v %d -g %d" % (n, c, h, w, c, f, f, p, p, s, s, c)
        rows.append((name, cmd, key, args))
def picks(tool):
    out = subprocess.run([tool, '--rank', '1'], input="".join("%s - - 0\n" % r[2] for r in rows), capture_output=True, text=True).stdout
    d = {}
    for l in out.splitlines():
        f = l.split()
        if len(f) >= 5: d[f[0]] = (f[2], f[3] if f[3] != '-' else 'default')
    return d
old = picks(sys.argv[1]); new = picks(sys.argv[2])
nd = 0
for name, cmd, key, args in rows:
    o, n = old.get(key), new.get(key)
    if o is None or n is None: print("# missing", key, file=sys.stderr); continue
    same = o == n
    nd += not same
    print("%s|%s|%s|%s|%s|%s|%s|%s|%d" % (name, cmd, key, args, o[0], o[1], n[0], n[1], same))
print("# %d of %d differ" % (nd, len(rows)), file=sys.stderr)
