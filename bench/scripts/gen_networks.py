#!/usr/bin/env python3
"""Writes bench/networks/*.txt: the convolution layers of a few well-known networks as
MIOpenDriver CBAInfer lines, one per layer, in execution order, for `clfuse-bench --network`.

The architectures follow torchvision's definitions (torchvision/models/resnet.py, vgg.py,
mobilenetv3.py, efficientnet.py, squeezenet.py), input 224x224. Every convolution becomes a
conv+bias+activation layer (-F 4): batch-norm is folded into the convolution's weights and bias,
as inference engines do. What is not a convolution (pooling, the residual add, the
squeeze-and-excitation multiply, concatenation, linear classifiers) is left out; the activation
is the one that follows the convolution directly (a convolution followed by BN and a residual add
before its ReLU gets PASTHRU). Repeated shapes are listed again: nothing is deduplicated.

MIOpen activation modes: 0 PASTHRU, 1 LOGISTIC, 3 RELU. MIOpen has no hardswish, hardsigmoid or
SiLU: hardswish and SiLU layers use RELU, hardsigmoid uses LOGISTIC (each file says so).

  usage: bench/scripts/gen_networks.py [OUTDIR]   (default: bench/networks next to this script)
"""
import os
import sys

PASS, LOGISTIC, RELU = 0, 1, 3
# Stand-ins for what MIOpen lacks; each file's header names them.
HARDSWISH, HARDSIGMOID, SILU, SIGMOID = RELU, LOGISTIC, RELU, LOGISTIC


def out_size(i, k, s, p):
    return (i + 2 * p - k) // s + 1


def pool_size(i, k, s, p=0, ceil=False):
    if ceil:
        return -(-(i + 2 * p - k) // s) + 1
    return (i + 2 * p - k) // s + 1


class Net:
    def __init__(self, batch):
        self.n = batch
        self.lines = []

    def conv(self, name, c, hw, k, ksize, stride=1, pad=None, groups=1, act=RELU):
        """Appends a layer; returns its output size (square inputs only, as in these nets)."""
        if pad is None:
            pad = (ksize - 1) // 2
        self.lines.append(
            "CBAInfer -F 4 -n %d -c %d -H %d -W %d -k %d -y %d -x %d -p %d -q %d -u %d -v %d "
            "-g %d -m %d  # name=%s" % (self.n, c, hw, hw, k, ksize, ksize, pad, pad, stride,
                                       stride, groups, act, name))
        return out_size(hw, ksize, stride, pad)


def make_divisible(v, divisor=8, min_value=None):
    """torchvision's _make_divisible (channel rounding of MobileNet and EfficientNet)."""
    min_value = min_value or divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


def resnet18(net):
    hw = net.conv("conv1", 3, 224, 64, 7, 2, 3)
    hw = pool_size(hw, 3, 2, 1)  # maxpool
    c = 64
    for li, (k, stride) in enumerate([(64, 1), (128, 2), (256, 2), (512, 2)], 1):
        for bi in range(2):
            s = stride if bi == 0 else 1
            pre = "layer%d.%d" % (li, bi)
            o = net.conv(pre + ".conv1", c, hw, k, 3, s)
            # conv2's BN output meets the residual before the ReLU: no activation of its own.
            net.conv(pre + ".conv2", k, o, k, 3, 1, act=PASS)
            if s != 1 or c != k:
                net.conv(pre + ".downsample", c, hw, k, 1, s, 0, act=PASS)
            c, hw = k, o
    return ["ResNet-18 (torchvision resnet18): the fc layer is not a convolution and is "
            "left out; a block's conv2 and downsample have PASTHRU (ReLU comes after the add)"]


def vgg16(net):
    cfg = [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"]
    c, hw, i = 3, 224, 0
    for v in cfg:
        if v == "M":
            hw //= 2
            i += 1
            continue
        net.conv("features.%d" % i, c, hw, v, 3, 1, 1)
        i += 2  # torchvision's index: conv, then its ReLU
        c = v
    return ["VGG-16 (torchvision vgg16, configuration D, no batch-norm): the classifier's "
            "linear layers are left out"]


def se_block(net, pre, c, squeeze, act1, act2):
    """Squeeze-and-excitation: two 1x1 convolutions on the pooled 1x1 map."""
    net.conv(pre + ".fc1", c, 1, squeeze, 1, 1, 0, act=act1)
    net.conv(pre + ".fc2", squeeze, 1, c, 1, 1, 0, act=act2)


def mobilenetv3_large(net):
    # (input, kernel, expanded, out, use_se, activation, stride) from torchvision.
    conf = [(16, 3, 16, 16, False, "RE", 1), (16, 3, 64, 24, False, "RE", 2),
            (24, 3, 72, 24, False, "RE", 1), (24, 5, 72, 40, True, "RE", 2),
            (40, 5, 120, 40, True, "RE", 1), (40, 5, 120, 40, True, "RE", 1),
            (40, 3, 240, 80, False, "HS", 2), (80, 3, 200, 80, False, "HS", 1),
            (80, 3, 184, 80, False, "HS", 1), (80, 3, 184, 80, False, "HS", 1),
            (80, 3, 480, 112, True, "HS", 1), (112, 3, 672, 112, True, "HS", 1),
            (112, 5, 672, 160, True, "HS", 2), (160, 5, 960, 160, True, "HS", 1),
            (160, 5, 960, 160, True, "HS", 1)]
    hw = net.conv("features.0", 3, 224, 16, 3, 2, act=HARDSWISH)
    for i, (cin, k, exp, cout, se, a, s) in enumerate(conf, 1):
        act = RELU if a == "RE" else HARDSWISH
        pre = "features.%d" % i
        if exp != cin:
            net.conv(pre + ".expand", cin, hw, exp, 1, 1, 0, act=act)
        o = net.conv(pre + ".depthwise", exp, hw, exp, k, s, groups=exp, act=act)
        if se:
            se_block(net, pre + ".se", exp, make_divisible(exp // 4, 8), RELU, HARDSIGMOID)
        net.conv(pre + ".project", exp, o, cout, 1, 1, 0, act=PASS)
        hw = o
    net.conv("features.16", 160, hw, 960, 1, 1, 0, act=HARDSWISH)
    return ["MobileNetV3-Large (torchvision mobilenet_v3_large, width 1.0): the classifier's "
            "linear layers, pooling and the SE multiply are left out",
            "hardswish layers use RELU (-m 3) and the SE's hardsigmoid uses LOGISTIC (-m 1): "
            "MIOpen has neither"]


def efficientnet_b0(net):
    # (expand_ratio, kernel, stride, input, out, layers) from torchvision (width 1.0, depth 1.0).
    conf = [(1, 3, 1, 32, 16, 1), (6, 3, 2, 16, 24, 2), (6, 5, 2, 24, 40, 2),
            (6, 3, 2, 40, 80, 3), (6, 5, 1, 80, 112, 3), (6, 5, 2, 112, 192, 4),
            (6, 3, 1, 192, 320, 1)]
    hw = net.conv("features.0", 3, 224, 32, 3, 2, act=SILU)
    for si, (e, k, s, cin, cout, layers) in enumerate(conf, 1):
        for li in range(layers):
            c = cin if li == 0 else cout
            stride = s if li == 0 else 1
            exp = make_divisible(c * e, 8)
            pre = "features.%d.%d" % (si, li)
            if exp != c:
                net.conv(pre + ".expand", c, hw, exp, 1, 1, 0, act=SILU)
            o = net.conv(pre + ".depthwise", exp, hw, exp, k, stride, groups=exp, act=SILU)
            se_block(net, pre + ".se", exp, max(1, c // 4), SILU, SIGMOID)
            net.conv(pre + ".project", exp, o, cout, 1, 1, 0, act=PASS)
            hw = o
    net.conv("features.8", 320, hw, 1280, 1, 1, 0, act=SILU)
    return ["EfficientNet-B0 (torchvision efficientnet_b0): the classifier's linear layer, "
            "pooling and the SE multiply are left out",
            "SiLU layers use RELU (-m 3): MIOpen has no SiLU; the SE's sigmoid is LOGISTIC (-m 1)"]


def squeezenet1_1(net):
    hw = net.conv("features.0", 3, 224, 64, 3, 2, 0)
    hw = pool_size(hw, 3, 2, ceil=True)
    fires = [(64, 16, 64, 64), (128, 16, 64, 64), "M", (128, 32, 128, 128),
             (256, 32, 128, 128), "M", (256, 48, 192, 192), (384, 48, 192, 192),
             (384, 64, 256, 256), (512, 64, 256, 256)]
    idx = 3
    for f in fires:
        if f == "M":
            hw = pool_size(hw, 3, 2, ceil=True)
            idx += 1
            continue
        cin, sq, e1, e3 = f
        pre = "features.%d" % idx
        net.conv(pre + ".squeeze", cin, hw, sq, 1, 1, 0)
        net.conv(pre + ".expand1x1", sq, hw, e1, 1, 1, 0)
        net.conv(pre + ".expand3x3", sq, hw, e3, 3, 1, 1)
        idx += 1
    net.conv("classifier.1", 512, hw, 1000, 1, 1, 0)
    return ["SqueezeNet 1.1 (torchvision squeezenet1_1, no batch-norm): pooling and the fire "
            "modules' concatenation are left out; the classifier is a 1x1 convolution"]


NETWORKS = [("resnet18", resnet18, [1, 32]), ("vgg16", vgg16, [1, 32]),
            ("mobilenetv3_large", mobilenetv3_large, [1, 32]),
            ("efficientnet_b0", efficientnet_b0, [1]), ("squeezenet1_1", squeezenet1_1, [1])]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "networks")
    os.makedirs(outdir, exist_ok=True)
    for name, fn, batches in NETWORKS:
        for b in batches:
            net = Net(b)
            notes = fn(net)
            path = os.path.join(outdir, "%s_b%d.txt" % (name, b))
            with open(path, "w") as f:
                f.write("# %s, batch %d, input 3x224x224: %d convolution layers in execution "
                        "order, for clfuse-bench --network.\n" % (name, b, len(net.lines)))
                for n in notes:
                    f.write("# %s.\n" % n)
                f.write("# Each convolution as conv+bias+activation (-F 4): batch-norm folded "
                        "into weights and bias, as inference engines do. Written by "
                        "bench/scripts/gen_networks.py; edit that, not this.\n")
                for line in net.lines:
                    f.write(line + "\n")
            print("%s: %d layers" % (path, len(net.lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
