#!/usr/bin/env python3
"""PyTorch peer for clfuse-bench: the same suite entries, timed through PyTorch.

Usage: peer_torch.py --input ENTRIES.json --device cuda|cpu [--runs N] [--warmup N]

ENTRIES.json is {"conv": [...], "bn": [...]} with the suite's fields (n c h w k y x pad stride
dilation [groups]). For each conv entry it times:
  conv        F.conv2d alone (cuDNN conv / oneDNN conv)
  cba         F.conv2d(bias) + relu (PyTorch's unfused sequence)
  cbna        F.conv2d(bias) + F.batch_norm(inference) + relu
  cba_fused   torch.cudnn_convolution_relu (cudnnConvolutionBiasActivationForward), CUDA only
  cbna_fused  the same with BN folded into weights and bias (what an inference engine does)
and for each bn entry:
  na          F.batch_norm(inference) + relu
fp32 with TF32 off. CUDA: CUDA events around each iteration; CPU: time.perf_counter.
Warm-up, then min and median of N (ms). Fused results are checked against the unfused
sequence before they are timed. JSON on stdout; progress on stderr. Without PyTorch it prints
{"skipped": "PyTorch not installed"} and exits 0.
"""
import argparse
import json
import statistics
import sys
import time


def log(msg):
    print("peer_torch: " + msg, file=sys.stderr, flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--input", required=True)
    ap.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    a = ap.parse_args()
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
    out = {
        "torch": torch.__version__,
        "device": torch.cuda.get_device_name(0) if cuda else "cpu",
        "backend": ("cuDNN %s" % torch.backends.cudnn.version()) if cuda else
                   ("CPU, %d threads, mkldnn %s" % (torch.get_num_threads(),
                                                    torch.backends.mkldnn.is_available())),
        "timing": "CUDA events per iteration" if cuda else "time.perf_counter per iteration",
        "tf32": False,
        "notes": [],
        "entries": {},
    }
    fused_relu = getattr(torch, "cudnn_convolution_relu", None) if cuda else None
    if cuda and fused_relu is None:
        out["notes"].append("torch.cudnn_convolution_relu is absent: no cuDNN fused figure")
    if not cuda:
        out["notes"].append("CPU: no fused conv+bias+relu entry point; PyTorch sequences only")

    def timeit(fn):
        with torch.no_grad():
            for _ in range(a.warmup):
                fn()
            ts = []
            if cuda:
                torch.cuda.synchronize()
                for _ in range(a.runs):
                    s = torch.cuda.Event(enable_timing=True)
                    e = torch.cuda.Event(enable_timing=True)
                    s.record()
                    fn()
                    e.record()
                    e.synchronize()
                    ts.append(s.elapsed_time(e))
            else:
                for _ in range(a.runs):
                    t0 = time.perf_counter()
                    fn()
                    ts.append((time.perf_counter() - t0) * 1e3)
        return {"min": min(ts), "median": statistics.median(ts), "n": len(ts)}

    def rms_rel(ref, y):
        ref = ref.double()
        y = y.double()
        m = max(ref.abs().max().item(), y.abs().max().item())
        if m == 0:
            return 0.0
        return ((ref - y).pow(2).mean().sqrt() / m).item()

    gen = torch.Generator().manual_seed(42)

    def rand(shape, lo, hi):
        return (torch.rand(shape, generator=gen) * (hi - lo) + lo).to(dev)

    eps = 1e-5
    convs = suite.get("conv", [])
    bns = suite.get("bn", [])
    total = len(convs) + len(bns)
    done = 0
    with torch.no_grad():
        for e in convs:
            done += 1
            t0 = time.time()
            g = e.get("groups", 1)
            x = rand((e["n"], e["c"], e["h"], e["w"]), -1, 1)
            w = rand((e["k"], e["c"] // g, e["y"], e["x"]), -1, 1)
            b = rand((e["k"],), -1, 1)
            scale = rand((e["k"],), 0.5, 1.5)
            shift = rand((e["k"],), -0.5, 0.5)
            mean = rand((e["k"],), -0.2, 0.2)
            var = rand((e["k"],), 0.5, 2.0)
            kw = dict(stride=e["stride"], padding=e["pad"], dilation=e["dilation"], groups=g)

            def conv():
                return F.conv2d(x, w, None, **kw)

            def cba():
                return torch.relu(F.conv2d(x, w, b, **kw))

            def cbna():
                y = F.conv2d(x, w, b, **kw)
                return torch.relu(F.batch_norm(y, mean, var, scale, shift, False, 0.0, eps))

            r = {"conv": timeit(conv), "cba": timeit(cba), "cbna": timeit(cbna)}
            if fused_relu is not None:
                s = [e["stride"]] * 2
                p = [e["pad"]] * 2
                d = [e["dilation"]] * 2
                inv = scale / torch.sqrt(var + eps)
                wf = (w * inv.view(-1, 1, 1, 1)).contiguous()
                bf = ((b - mean) * inv + shift).contiguous()
                try:
                    err = rms_rel(cba(), fused_relu(x, w, b, s, p, d, g))
                    errn = rms_rel(cbna(), fused_relu(x, wf, bf, s, p, d, g))
                    if err < 1e-5:
                        r["cba_fused"] = timeit(lambda: fused_relu(x, w, b, s, p, d, g))
                        r["cba_fused"]["err_vs_unfused"] = err
                    else:
                        r["cba_fused_error"] = "FAILED: rms-relative %.3g vs the sequence" % err
                    if errn < 1e-5:
                        r["cbna_fused"] = timeit(lambda: fused_relu(x, wf, bf, s, p, d, g))
                        r["cbna_fused"]["err_vs_unfused"] = errn
                        r["cbna_fused"]["note"] = "BN folded into weights and bias"
                    else:
                        r["cbna_fused_error"] = "FAILED: rms-relative %.3g vs the sequence" % errn
                except RuntimeError as ex:  # cuDNN may refuse a shape
                    r["cba_fused_error"] = "cudnn_convolution_relu: %s" % str(ex)[:200]
            out["entries"][e["name"]] = r
            log("[%d/%d] %s: conv+bias+relu %.4f ms (%.1f s)"
                % (done, total, e["name"], r["cba"]["min"], time.time() - t0))
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
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
