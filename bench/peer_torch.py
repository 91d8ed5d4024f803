#!/usr/bin/env python3
"""PyTorch peer for clfuse-bench: the same suite entries, timed through PyTorch.

Usage: peer_torch.py --input ENTRIES.json --device cuda|cpu [--runs N] [--warmup N]
                     [--graph-iters K] [--no-graph]

ENTRIES.json is {"conv": [...], "bn": [...], "sequence": false, "dtype": "float32"} with the
suite's fields (n c h
w k y x pad stride dilation [groups] [act alpha beta gamma]). act is MIOpen's activation mode
number (0 PASTHRU, 1 LOGISTIC, 2 TANH, 3 RELU, ... 9 ELU; default 3), alpha/beta/gamma its
parameters with MIOpen's formulas. For each conv entry it times:
  conv        F.conv2d alone (cuDNN's bare convolution / oneDNN's)
  cba         F.conv2d(bias) + the activation (PyTorch's unfused sequence)
  cbna        F.conv2d(bias) + F.batch_norm(inference) + the activation
  cba_fused   torch.cudnn_convolution_relu (cudnnConvolutionBiasActivationForward), CUDA and
              RELU only
  cbna_fused  the same with BN folded into weights and bias (what an inference engine does)
and for each bn entry:
  na          F.batch_norm(inference) + relu
With "sequence": true (clfuse-bench --network) it also times every conv entry's cba back to
back, in the input's order, as one network ("network" in the output; see below).

"dtype": "float16" (clfuse-bench --half) makes every tensor half, cuDNN free to use tensor
cores; the fused checks then allow 2e-3 (two half roundings apart) instead of 1e-5.

Timing, fp32 with TF32 off:
  CUDA: each op sequence is warmed up (which also lets cudnn.benchmark pick its algorithm) on a
  side stream, as PyTorch requires before capture, then K iterations of it (--graph-iters,
  default 20) are captured in one CUDA graph. Each timed run is one graph replay between two
  CUDA events, divided by K: device time without Python's or PyTorch's per-launch host cost,
  comparable to clfuse's kernel time. Where capture fails the figure falls back to CUDA events
  around each eager iteration (which includes launch gaps) and says so: every figure carries
  "timing": "cuda_graph (K iterations per replay)" or "eager (capture failed: ...)".
  --no-graph times everything eagerly.
  CPU: time.perf_counter around each iteration ("timing": "perf_counter per iteration").
  Then min and median of N runs (ms), of the round (of ROUNDS = 3) with the lowest median, as
  clfuse-bench keeps for clfuse's own figures.
  network (sequence mode): "graph" is the whole sequence captured once (one replay timed
  with events), the device-time counterpart of the sum of per-layer figures; "wall" is the
  host clock around one eager pass over all layers and one synchronize (host overhead
  included), the counterpart of clfuse-bench's back-to-back wall time. Both for the unfused
  sequences ("sequence") and with cuDNN's fused call where it applies ("fused_where_available").
Fused results are checked against the unfused sequence before they are timed. JSON on stdout;
progress on stderr. Without PyTorch it prints {"skipped": "PyTorch not installed"} and exits 0.
"""
import argparse
import json
import math
import statistics
import sys
import time

# Timing rounds per figure, the lowest median's kept (clfuse-bench's BENCH_MAX_ROUNDS).
ROUNDS = 3


def log(msg):
    print("peer_torch: " + msg, file=sys.stderr, flush=True)


def summary(ts, timing):
    return {"min": min(ts), "median": statistics.median(ts), "n": len(ts), "timing": timing}


def finite(v):
    """v with every non-finite float as None: clfuse-bench's JSON parser refuses NaN."""
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, dict):
        return {k: finite(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [finite(x) for x in v]
    return v


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--input", required=True)
    ap.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--graph-iters", type=int, default=20)
    ap.add_argument("--no-graph", action="store_true")
    a = ap.parse_args()
    if a.runs < 1 or a.warmup < 0 or a.graph_iters < 1:
        ap.error("--runs and --graph-iters must be >= 1, --warmup >= 0")
    try:
        import torch
        import torch.nn.functional as F
    except Exception as e:  # ImportError, or a broken install
        print(json.dumps({"skipped": "PyTorch not installed (%s)" % type(e).__name__}))
        return 0
    with open(a.input) as f:
        suite = json.load(f)
    if a.device == "cuda" and not torch.cuda.is_available():
        print(json.dumps({"skipped": "PyTorch %s has no CUDA device" % torch.__version__}))
        return 0
    dev = torch.device(a.device)
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.benchmark = True
    torch.set_float32_matmul_precision("highest")
    cuda = a.device == "cuda"
    use_graph = cuda and not a.no_graph and hasattr(torch.cuda, "CUDAGraph")
    K = a.graph_iters
    graph_label = "cuda_graph (%d iterations per replay)" % K
    if not cuda:
        method = "time.perf_counter per iteration"
    elif use_graph:
        method = ("CUDA graph: %d iterations captured per graph after a side-stream warm-up; "
                  "CUDA events around each replay, divided by %d; eager per-iteration CUDA "
                  "events only where capture failed (marked per figure)" % (K, K))
    else:
        method = "CUDA events around each eager iteration (%s)" % (
            "--no-graph" if a.no_graph else "torch.cuda.CUDAGraph absent")
    out = {
        "torch": torch.__version__,
        "device": torch.cuda.get_device_name(0) if cuda else "cpu",
        "backend": ("cuDNN %s" % torch.backends.cudnn.version()) if cuda else
                   ("CPU, %d threads, mkldnn %s" % (torch.get_num_threads(),
                                                    torch.backends.mkldnn.is_available())),
        "timing": method,
        "graph_iters": K if use_graph else 0,
        "tf32": False,
        "notes": [],
        "entries": {},
    }
    fused_relu = getattr(torch, "cudnn_convolution_relu", None) if cuda else None
    if cuda and fused_relu is None:
        out["notes"].append("torch.cudnn_convolution_relu is absent: no cuDNN fused figure")
    if not cuda:
        out["notes"].append("CPU: no fused conv+bias+relu entry point; PyTorch sequences only")
    failures = {"capture": 0}

    def best_round(measure):
        """The round (of ROUNDS, each a list of per-run times) with the lowest median: what
        clfuse-bench keeps of clfuse's own paths, so that a slow stretch of the device or host
        decides neither side's figure."""
        best = None
        for _ in range(ROUNDS):
            ts = measure()
            if best is None or statistics.median(ts) < statistics.median(best):
                best = ts
        return best

    def eager_times(fn, runs):
        return best_round(lambda: eager_round(fn, runs))

    def eager_round(fn, runs):
        ts = []
        if cuda:
            torch.cuda.synchronize()
            for _ in range(runs):
                s = torch.cuda.Event(enable_timing=True)
                e = torch.cuda.Event(enable_timing=True)
                s.record()
                fn()
                e.record()
                e.synchronize()
                ts.append(s.elapsed_time(e))
        else:
            for _ in range(runs):
                t0 = time.perf_counter()
                fn()
                ts.append((time.perf_counter() - t0) * 1e3)
        return ts

    def graph_times(fn, iters):
        """Per-iteration device times from graph replays, or (None, reason)."""
        # Capture needs the ops warmed up off the default stream (cuDNN handles, workspace and
        # the benchmark's algorithm choice happen outside the capture).
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(max(1, a.warmup)):
                fn()
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        try:
            with torch.cuda.graph(g):
                for _ in range(iters):
                    fn()
            g.replay()  # the first replay uploads the graph
            torch.cuda.synchronize()
        except Exception as ex:  # capture refused: an op that syncs, allocates oddly, ...
            del g
            # A failed capture_end leaves torch.cuda.graph's capture stream current.
            torch.cuda.set_stream(torch.cuda.default_stream())
            torch.cuda.synchronize()  # a broken context raises here, and the bench says so
            return None, "%s: %s" % (type(ex).__name__, str(ex).splitlines()[0][:160]
                                     if str(ex) else "")
        try:
            for _ in range(a.warmup):
                g.replay()
            torch.cuda.synchronize()

            def replay_round():
                ts = []
                for _ in range(a.runs):
                    s = torch.cuda.Event(enable_timing=True)
                    e = torch.cuda.Event(enable_timing=True)
                    s.record()
                    g.replay()
                    e.record()
                    e.synchronize()
                    ts.append(s.elapsed_time(e) / iters)
                return ts

            ts = best_round(replay_round)
        finally:
            del g
        return ts, None

    def timeit(fn, iters=None):
        with torch.no_grad():
            if use_graph:
                ts, why = graph_times(fn, iters or K)
                if ts is not None:
                    label = graph_label if iters is None else "cuda_graph (1 pass per replay)"
                    return summary(ts, label)
                failures["capture"] += 1
                log("CUDA graph capture failed (%s): eager timing for this figure" % why)
                for _ in range(a.warmup):
                    fn()
                return summary(eager_times(fn, a.runs), "eager (capture failed: %s)" % why)
            for _ in range(a.warmup):
                fn()
            return summary(eager_times(fn, a.runs), "perf_counter per iteration" if not cuda
                           else "eager CUDA events per iteration")

    def wall(fn):
        """Host clock around one eager call of fn and one synchronize: host overhead included."""
        with torch.no_grad():
            for _ in range(a.warmup):
                fn()
            if cuda:
                torch.cuda.synchronize()
            ts = []
            for _ in range(a.runs):
                t0 = time.perf_counter()
                fn()
                if cuda:
                    torch.cuda.synchronize()
                ts.append((time.perf_counter() - t0) * 1e3)
        return summary(ts, "host perf_counter around one eager pass and one synchronize")

    def rms_rel(ref, y):
        ref = ref.double()
        y = y.double()
        m = max(ref.abs().max().item(), y.abs().max().item())
        if m == 0:
            return 0.0
        return ((ref - y).pow(2).mean().sqrt() / m).item()

    def activation(mode, alpha, beta, gamma):
        """MIOpen's activation formulas (test/ref/ref.c) as a tensor function, or None."""
        if mode == 0:
            return lambda y: y
        if mode == 1:
            return torch.sigmoid
        if mode == 2:
            return lambda y: beta * torch.tanh(alpha * y)
        if mode == 3:
            return torch.relu
        if mode == 4:
            return F.softplus
        if mode == 5:
            return torch.abs
        if mode == 6:
            def power(y):
                base = alpha + beta * y
                return torch.where(base > 2.220446049250313e-16,
                                   base.clamp_min(1e-30).pow(gamma), torch.zeros_like(y))
            return power
        if mode == 7:
            return lambda y: y.clamp(0.0, alpha)
        if mode == 8:
            return lambda y: F.leaky_relu(y, alpha)
        if mode == 9:
            return lambda y: F.elu(y, alpha)
        return None

    gen = torch.Generator().manual_seed(42)
    dtype = suite.get("dtype", "float32")
    if dtype not in ("float32", "float16"):
        print(json.dumps({"skipped": "dtype %r unknown" % dtype}))
        return 0
    dt = torch.float16 if dtype == "float16" else torch.float32
    out["dtype"] = dtype
    fused_tol = 2e-3 if dt == torch.float16 else 1e-5

    def rand(shape, lo, hi):
        return (torch.rand(shape, generator=gen) * (hi - lo) + lo).to(dev, dt)

    eps = 1e-5
    convs = suite.get("conv", [])
    bns = suite.get("bn", [])
    sequence = bool(suite.get("sequence", False))
    layers = []  # sequence mode: each conv entry's (cba, fused-or-cba, conv) closures
    total = len(convs) + len(bns)
    done = 0
    with torch.no_grad():
        for e in convs:
            done += 1
            t0 = time.time()
            g = e.get("groups", 1)
            mode = e.get("act", 3)
            act = activation(mode, e.get("alpha", 1.0), e.get("beta", 0.0), e.get("gamma", 1.0))
            if act is None:
                out["entries"][e["name"]] = {"error": "activation mode %r unknown" % mode}
                continue
            x = rand((e["n"], e["c"], e["h"], e["w"]), -1, 1)
            w = rand((e["k"], e["c"] // g, e["y"], e["x"]), -1, 1)
            b = rand((e["k"],), -1, 1)
            scale = rand((e["k"],), 0.5, 1.5)
            shift = rand((e["k"],), -0.5, 0.5)
            mean = rand((e["k"],), -0.2, 0.2)
            var = rand((e["k"],), 0.5, 2.0)
            kw = dict(stride=e["stride"], padding=e["pad"], dilation=e["dilation"], groups=g)

            def conv(x=x, w=w, kw=kw):
                return F.conv2d(x, w, None, **kw)

            def cba(x=x, w=w, b=b, kw=kw, act=act):
                return act(F.conv2d(x, w, b, **kw))

            def cbna(x=x, w=w, b=b, kw=kw, act=act, mean=mean, var=var, scale=scale,
                     shift=shift):
                y = F.conv2d(x, w, b, **kw)
                return act(F.batch_norm(y, mean, var, scale, shift, False, 0.0, eps))

            r = {"conv": timeit(conv), "cba": timeit(cba)}
            if not sequence:
                r["cbna"] = timeit(cbna)
            fused_cba = None
            if fused_relu is not None and mode != 3:
                r["cba_fused_error"] = ("torch.cudnn_convolution_relu fuses RELU only "
                                        "(activation mode %d)" % mode)
            elif fused_relu is not None:
                s = [e["stride"]] * 2
                p = [e["pad"]] * 2
                d = [e["dilation"]] * 2
                inv = scale / torch.sqrt(var + eps)
                wf = (w * inv.view(-1, 1, 1, 1)).contiguous()
                bf = ((b - mean) * inv + shift).contiguous()
                try:
                    err = rms_rel(cba(), fused_relu(x, w, b, s, p, d, g))
                    if err < fused_tol:
                        fused_cba = lambda x=x, w=w, b=b, s=s, p=p, d=d, g=g: \
                            fused_relu(x, w, b, s, p, d, g)
                        r["cba_fused"] = timeit(fused_cba)
                        r["cba_fused"]["err_vs_unfused"] = err
                    else:
                        r["cba_fused_error"] = "FAILED: rms-relative %.3g vs the sequence" % err
                    if not sequence:
                        errn = rms_rel(cbna(), fused_relu(x, wf, bf, s, p, d, g))
                        if errn < fused_tol:
                            r["cbna_fused"] = timeit(lambda: fused_relu(x, wf, bf, s, p, d, g))
                            r["cbna_fused"]["err_vs_unfused"] = errn
                            r["cbna_fused"]["note"] = "BN folded into weights and bias"
                        else:
                            r["cbna_fused_error"] = ("FAILED: rms-relative %.3g vs the sequence"
                                                     % errn)
                except RuntimeError as ex:  # cuDNN may refuse a shape
                    r["cba_fused_error"] = "cudnn_convolution_relu: %s" % str(ex)[:200]
            out["entries"][e["name"]] = r
            log("[%d/%d] %s: conv+bias+act %.4f ms, %s (%.1f s)"
                % (done, total, e["name"], r["cba"]["min"], r["cba"]["timing"], time.time() - t0))
            if sequence:
                layers.append((cba, fused_cba or cba, conv))
            else:
                del x, w
                if cuda:
                    torch.cuda.empty_cache()
        for e in bns:
            done += 1
            c = e["c"]
            x = rand((e["n"], c, e["h"], e["w"]), -1, 1)
            scale = rand((c,), 0.5, 1.5)
            shift = rand((c,), -0.5, 0.5)
            mean = rand((c,), -0.2, 0.2)
            var = rand((c,), 0.5, 2.0)

            def na():
                return torch.relu(F.batch_norm(x, mean, var, scale, shift, False, 0.0, eps))

            out["entries"][e["name"]] = {"na": timeit(na)}
            log("[%d/%d] %s: bn+relu %.4f ms" % (done, total, e["name"],
                                                 out["entries"][e["name"]]["na"]["min"]))
            del x
            if cuda:
                torch.cuda.empty_cache()
        if sequence and layers:
            def run_all(i):
                def f():
                    for lay in layers:
                        lay[i]()
                return f
            net = {"layers": len(layers),
                   "fused_layers": sum(1 for lay in layers if lay[1] is not lay[0])}
            for name, i in (("sequence", 0), ("fused_where_available", 1), ("conv", 2)):
                net[name] = {"graph": timeit(run_all(i), iters=1) if use_graph else None,
                             "wall": wall(run_all(i))}
            out["network"] = net
            log("network of %d layers: sequence wall %.4f ms, fused where available wall "
                "%.4f ms" % (len(layers), net["sequence"]["wall"]["min"],
                             net["fused_where_available"]["wall"]["min"]))
    if failures["capture"]:
        out["notes"].append("CUDA graph capture failed for %d figure(s): eager timing there "
                            "(see each figure's timing)" % failures["capture"])
    print(json.dumps(finite(out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
