"""paddle.bmm with an empty contraction axis ([2, 3, 0] x [2, 0, 4]) returns uninitialised memory
instead of zeros (the sum of no products)."""
import numpy as np
import paddle

a = paddle.to_tensor(np.ones((2, 3, 0), np.float32))
b = paddle.to_tensor(np.ones((2, 0, 4), np.float32))
print(paddle.bmm(a, b).numpy())  # expected zeros; values such as 4.4e+18, 7.0e-45, 3.0 come back
