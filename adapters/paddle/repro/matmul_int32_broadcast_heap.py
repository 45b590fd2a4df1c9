"""paddle.matmul of int32 tensors whose batch axes broadcast ([2, 1, 3, 4] x [5, 4, 2]) corrupts
the heap: the process aborts ("free(): invalid next size") or hangs in malloc. float32 is right."""
import numpy as np
import paddle

a = paddle.to_tensor(np.ones((2, 1, 3, 4), np.int32))
b = paddle.to_tensor(np.ones((5, 4, 2), np.int32))
print(paddle.matmul(a, b).shape)  # expected [2, 5, 3, 2]; the process dies here, or soon after
print(paddle.matmul(a, b).numpy().sum())
