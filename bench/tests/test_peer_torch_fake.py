#!/usr/bin/env python3
"""Checks bench/peer_torch.py's control flow against the fake torch in fake_torch/ (no PyTorch
or GPU needed): CPU timing, CUDA graph timing, the eager fallback where capture fails (marked
per figure), activation modes without a fused entry point, sequence (network) mode.
  usage: test_peer_torch_fake.py [PYTHON]"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "peer_torch.py")
ENTRIES = {
    "conv": [
        {"name": "relu", "n": 1, "c": 8, "h": 8, "w": 8, "k": 8, "y": 3, "x": 3, "pad": 1,
         "stride": 1, "dilation": 1, "groups": 1, "act": 3},
        {"name": "dw_linear", "n": 1, "c": 8, "h": 8, "w": 8, "k": 8, "y": 3, "x": 3, "pad": 1,
         "stride": 2, "dilation": 1, "groups": 8, "act": 0},
    ],
    "bn": [{"name": "bn", "n": 1, "c": 8, "h": 8, "w": 8}],
}


def run(python, device, env, sequence=False, dtype=None):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        extra = {"dtype": dtype} if dtype else {}
        json.dump(dict(ENTRIES, sequence=sequence, **extra), f)
    e = dict(os.environ, PYTHONPATH=os.path.join(HERE, "fake_torch"), **env)
    try:
        p = subprocess.run([python, SCRIPT, "--input", f.name, "--device", device, "--runs", "3",
                            "--warmup", "1", "--graph-iters", "4"],
                           env=e, capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(f.name)
    if p.returncode != 0:
        sys.exit("peer_torch.py failed (%d):\n%s" % (p.returncode, p.stderr))
    return json.loads(p.stdout)


def check(cond, what):
    if not cond:
        sys.exit("FAILED: " + what)


def main():
    python = sys.argv[1] if len(sys.argv) > 1 else sys.executable
    d = run(python, "cpu", {})
    check(d["timing"] == "time.perf_counter per iteration", "CPU timing method")
    check(set(d["entries"]["relu"]) == {"conv", "cba", "cbna"}, "CPU figures")
    d = run(python, "cuda", {"FAKE_TORCH_CUDA": "1"})
    check(d["timing"].startswith("CUDA graph"), "GPU timing method")
    for k in ("conv", "cba", "cbna", "cba_fused", "cbna_fused"):
        check(d["entries"]["relu"][k]["timing"] == "cuda_graph (4 iterations per replay)", k)
    check("RELU only" in d["entries"]["dw_linear"]["cba_fused_error"], "PASTHRU has no fused")
    check(d["entries"]["bn"]["na"]["timing"].startswith("cuda_graph"), "na in a graph")
    d = run(python, "cuda", {"FAKE_TORCH_CUDA": "1", "FAKE_TORCH_CAPTURE_FAIL": "1"})
    check(d["entries"]["relu"]["cba_fused"]["timing"].startswith("eager (capture failed: "),
          "fallback marked")
    check(d["entries"]["relu"]["cba"]["timing"].startswith("cuda_graph"), "others in graphs")
    check(any("capture failed" in n for n in d["notes"]), "fallback noted")
    d = run(python, "cuda", {"FAKE_TORCH_CUDA": "1"}, sequence=True)
    net = d["network"]
    check(net["layers"] == 2 and net["fused_layers"] == 1, "network layer counts")
    check(net["sequence"]["graph"]["timing"] == "cuda_graph (1 pass per replay)", "network graph")
    check(net["fused_where_available"]["wall"]["min"] > 0, "network wall")
    # clfuse-bench --half: the peer's tensors half, said in the output; an unknown type is
    # refused rather than timed as fp32.
    d = run(python, "cuda", {"FAKE_TORCH_CUDA": "1", "FAKE_TORCH_EXPECT_DTYPE": "float16"},
            dtype="float16")
    check(d.get("dtype") == "float16", "half peer says so")
    check(d["entries"]["relu"]["cba_fused"]["timing"].startswith("cuda_graph"), "half fused")
    check(run(python, "cpu", {})["dtype"] == "float32", "fp32 by default")
    check("unknown" in run(python, "cpu", {}, dtype="int8").get("skipped", ""), "bad dtype")
    print("peer_torch.py with the fake torch: ok")


if __name__ == "__main__":
    main()
