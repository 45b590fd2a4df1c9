"""scatter_reduce(reduce="amax" or "amin", include_self=False): where x's own value, left out of
the reduction, equals the result, torch's backward counts it among the values that tie for the
max and halves the gradient of the src value that alone made the result. x = [3, 5], src [3, 1]
both into position 0 give [3, 5]: max(3, 1) is src[0], so d out[0] / d src[0] = 1, and x[0]
(left out) has no part in it. torch 2.13: src's gradient [0.5, 0]. The backward
(FunctionsManual.cpp, scatter_reduce_backward) divides by (self == result) scattered-added with
(src == value) before it zeroes self's share. Exits 1 while the bug is present."""
import sys

import torch

wrong = False
for reduce, src_values in (("amax", [3.0, 1.0]), ("amin", [3.0, 7.0])):
    x = torch.tensor([3.0, 5.0], requires_grad=True)
    src = torch.tensor(src_values, requires_grad=True)
    out = x.scatter_reduce(0, torch.tensor([0, 0]), src, reduce=reduce, include_self=False)
    out.sum().backward()
    print(reduce, "out", out.tolist(), "d/dsrc", src.grad.tolist(), "(expected [1.0, 0.0])")
    wrong |= src.grad.tolist() != [1.0, 0.0]
sys.exit(1 if wrong else 0)
