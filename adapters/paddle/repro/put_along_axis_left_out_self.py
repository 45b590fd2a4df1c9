"""paddle.put_along_axis(reduce="amax" or "amin", include_self=False): where x's own value, left
out of the reduction, equals the result, the backward kernel divides the gradient of the src value
that alone made the result by one more (cpu_scatter_mul_min_max_value_grad_kernel tests
out == x without include_self). x = [3, 5], src [3, 1] both into position 0 give [3, 5]:
max(3, 1) is src[0], so d out[0] / d src[0] = 1. Paddle 3.3.1: [0.5, 0] (torch's
scatter_reduce has the same fault: adapters/torch/repro/scatter_reduce_left_out_self.py).
Exits 1 while the bug is present."""
import sys

import paddle

wrong = False
for reduce, src_values in (("amax", [3.0, 1.0]), ("amin", [3.0, 7.0])):
    x = paddle.to_tensor([3.0, 5.0], stop_gradient=False)
    src = paddle.to_tensor(src_values, stop_gradient=False)
    out = paddle.put_along_axis(x, paddle.to_tensor([0, 0]), src, 0, reduce=reduce, include_self=False,
                                broadcast=False)
    (grad,) = paddle.grad(out.sum(), [src])
    print(reduce, "out", out.tolist(), "d/dsrc", grad.tolist(), "(expected [1.0, 0.0])")
    wrong |= grad.tolist() != [1.0, 0.0]
sys.exit(1 if wrong else 0)
