"""torch.compile (inductor, CPU, float64 or float32) returns wrong values from a conv1d written as
Keras' torch backend runs keras.ops.conv on channels-last inputs (a height of 1, channels_last
memory, groups from the channel counts, the bias added after), once the function is compiled
with dynamic shapes: the second shape below gets a graph whose returned view reads the output
with the wrong stride along the width (reinterpret_tensor(..., (3, 1, 1)) over a buffer laid out
(3, 1, 3 * N, 3 * N)), so the values come from other batch elements. The first shape, and eager
torch, are right. Automatic dynamic shapes (torch.compile's default, after a function meets a
second shape) reach the same graph on some sequences of shapes. Run:
python adapters/torch/repro/compiled_conv_dynamic_strides.py"""
import numpy as np
import torch

F = torch.nn.functional


def keras_conv1d(x, w, b):
    x = x[:, :, None].permute(0, 2, 3, 1)  # NHWC, as Keras takes it
    w = w[:, :, None].permute(2, 3, 1, 0)  # HWIO
    x = x.permute(0, 3, 1, 2).contiguous().contiguous(memory_format=torch.channels_last)
    w = w.permute(3, 2, 0, 1).contiguous(memory_format=torch.channels_last)
    out = torch.conv2d(x, w, stride=(1, 2), groups=x.shape[1] // w.shape[1])
    out = out.permute(0, 2, 3, 1).permute(0, 3, 1, 2)  # back from Keras' channels last
    return (out + b.reshape(1, -1, 1, 1))[:, :, 0]


compiled = torch.compile(keras_conv1d, dynamic=True)
rng = np.random.default_rng(1)
for shapes in ([(5, 4, 6), (2, 4, 3), (2,)], [(3, 5, 7), (3, 5, 3), (3,)]):
    x, w, b = (torch.tensor(rng.standard_normal(s)) for s in shapes)
    error = (compiled(x, w, b) - F.conv1d(x, w, b, stride=2)).abs().max().item()
    print(f"x {shapes[0]}, w {shapes[1]}: max |compiled - eager| = {error:.3g}")
