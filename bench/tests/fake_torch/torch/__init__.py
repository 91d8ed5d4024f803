"""A fake of the few torch calls bench/peer_torch.py makes, for testing the script's control
flow (graph capture, its fallback, the JSON it prints) on a machine without PyTorch or a GPU.
A tensor is one float; ops compute on it so that the fused call matches the sequence. Knobs:
FAKE_TORCH_CUDA=1 pretends to have a CUDA device; FAKE_TORCH_CAPTURE_FAIL=1 makes
cudnn_convolution_relu refuse graph capture, as an op that synchronises would."""
import contextlib
import math
import os
import time

__version__ = "0.0-fake"
_capturing = [False]


class Tensor:
    def __init__(self, v, dtype="float32"):
        self.v = float(v)
        self.dtype = dtype

    def _o(self, o):
        return o.v if isinstance(o, Tensor) else float(o)

    def _t(self, v):  # a result keeps the operand's type, as torch's ops do
        return Tensor(v, self.dtype)

    def __add__(self, o): return self._t(self.v + self._o(o))
    __radd__ = __add__
    def __sub__(self, o): return self._t(self.v - self._o(o))
    def __rsub__(self, o): return self._t(self._o(o) - self.v)
    def __mul__(self, o): return self._t(self.v * self._o(o))
    __rmul__ = __mul__
    def __truediv__(self, o): return self._t(self.v / self._o(o))
    def to(self, dev, dtype=None):
        return Tensor(self.v, dtype.name if dtype is not None else self.dtype)
    def view(self, *s): return self
    def contiguous(self): return self
    def double(self): return self
    def abs(self): return Tensor(math.fabs(self.v))
    def max(self): return self
    def mean(self): return self
    def sqrt(self): return self._t(math.sqrt(self.v))
    def pow(self, e): return Tensor(self.v ** self._o(e))
    def item(self): return self.v
    def clamp(self, lo, hi): return Tensor(min(hi, max(lo, self.v)))
    def clamp_min(self, lo): return Tensor(max(lo, self.v))
    def __gt__(self, o): return self.v > self._o(o)


class dtype:
    def __init__(self, name): self.name = name


float32 = dtype("float32")
float16 = dtype("float16")


class device:
    def __init__(self, name): self.name = name


class Generator:
    def manual_seed(self, s):
        self.s = s
        return self


def rand(shape, generator=None):
    n = 1
    for d in shape:
        n *= d
    return Tensor(0.25 + (n % 7) / 10.0)


def sqrt(t): return t.sqrt()
def relu(t): return Tensor(max(0.0, t.v))
def sigmoid(t): return Tensor(1 / (1 + math.exp(-t.v)))
def tanh(t): return Tensor(math.tanh(t.v))
def abs(t): return t.abs()  # noqa: A001 (torch's name)
def zeros_like(t): return Tensor(0)
def where(c, a, b): return a if c else b
def set_float32_matmul_precision(p): pass
def get_num_threads(): return 2
no_grad = contextlib.nullcontext


def cudnn_convolution_relu(x, w, b, s, p, d, g):
    if _capturing[0] and os.environ.get("FAKE_TORCH_CAPTURE_FAIL") == "1":
        raise RuntimeError("operation not permitted when stream is capturing")
    from .nn import functional as F
    return relu(F.conv2d(x, w, b))


class _Flags:
    pass


backends = _Flags()
backends.cudnn = _Flags()
backends.cudnn.version = lambda: 90100
backends.cuda = _Flags()
backends.cuda.matmul = _Flags()
backends.mkldnn = _Flags()
backends.mkldnn.is_available = lambda: False


class _Cuda:
    class Event:
        def __init__(self, enable_timing=False): self.t = 0.0
        def record(self): self.t = time.perf_counter()
        def synchronize(self): pass
        def elapsed_time(self, o): return (o.t - self.t) * 1e3

    class Stream:
        def wait_stream(self, s): pass

    class CUDAGraph:
        def replay(self): time.sleep(1e-4)

    @staticmethod
    def is_available(): return os.environ.get("FAKE_TORCH_CUDA") == "1"
    @staticmethod
    def get_device_name(i): return "Fake GPU"
    @staticmethod
    def synchronize(): pass
    @staticmethod
    def empty_cache(): pass
    @staticmethod
    def current_stream(): return _Cuda.Stream()
    @staticmethod
    def default_stream(): return _Cuda.Stream()
    @staticmethod
    def set_stream(s): _capturing[0] = False
    @staticmethod
    def stream(s): return contextlib.nullcontext()

    @staticmethod
    @contextlib.contextmanager
    def graph(g):
        _capturing[0] = True
        try:
            yield
        finally:
            _capturing[0] = False


cuda = _Cuda()
