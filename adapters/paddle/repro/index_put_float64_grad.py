"""The gradient of the values written by x[i] = v (Tensor.__setitem__ on a clone) is
uninitialised memory in float64 (values such as 6.06e+233 and 1.68e-118), right in float32."""
import numpy as np
import paddle

for dtype in ("float32", "float64"):
    x = paddle.to_tensor(np.array([[1, 2], [3, 4], [5, 6]], dtype), stop_gradient=False)
    v = paddle.to_tensor(np.array([[10, 20], [30, 40]], dtype), stop_gradient=False)
    out = x.clone()
    out[paddle.to_tensor([2, 0])] = v
    cotangent = paddle.to_tensor(np.array([[1, 2], [3, 4], [5, 6]], dtype))
    print(dtype, paddle.grad([out], [v], grad_outputs=[cotangent])[0].numpy().tolist())  # expected [[5, 6], [1, 2]]
