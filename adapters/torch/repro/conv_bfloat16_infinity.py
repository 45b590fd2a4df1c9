"""torch's bfloat16 convolution on CPU (oneDNN, which torch.autocast's conv1d and conv2d reach)
returns NaN for outputs whose window holds an infinity, where the float32 convolution and the
float64 reference give the infinity. One channel: where the infinity falls past the first tap of
the kernel along the width ([nan, inf, 3] below); with several channels not always. With
torch.backends.mkldnn disabled the bfloat16 result is right. Run:
python adapters/torch/repro/conv_bfloat16_infinity.py"""
import torch

F = torch.nn.functional
x = torch.ones(1, 1, 5)
x[0, 0, 1] = float("inf")
w = torch.ones(1, 1, 3)
print("float32:        ", F.conv1d(x, w)[0, 0].tolist())
print("bfloat16:       ", F.conv1d(x.bfloat16(), w.bfloat16())[0, 0].tolist())
with torch.autocast("cpu", dtype=torch.bfloat16):
    print("autocast:       ", F.conv1d(x, w)[0, 0].tolist())
with torch.backends.mkldnn.flags(enabled=False):
    print("without oneDNN: ", F.conv1d(x.bfloat16(), w.bfloat16())[0, 0].tolist())
