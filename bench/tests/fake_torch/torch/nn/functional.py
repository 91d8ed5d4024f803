"""Fake torch.nn.functional: see ../__init__.py."""
import math
import os
import time

from .. import Tensor


def conv2d(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    want = os.environ.get("FAKE_TORCH_EXPECT_DTYPE")
    if want and (x.dtype, w.dtype) != (want, want):
        raise TypeError("conv2d on %s x, %s w; expected %s" % (x.dtype, w.dtype, want))
    time.sleep(1e-4)
    return Tensor(x.v * w.v + (b.v if b is not None else 0.0))


def batch_norm(y, mean, var, scale, shift, training, momentum, eps):
    return Tensor((y.v - mean.v) / math.sqrt(var.v + eps) * scale.v + shift.v)


def softplus(t): return Tensor(math.log1p(math.exp(t.v)))
def leaky_relu(t, a): return Tensor(t.v if t.v > 0 else a * t.v)
def elu(t, a): return Tensor(t.v if t.v > 0 else a * math.expm1(t.v))
