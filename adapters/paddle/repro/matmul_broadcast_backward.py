"""The backward of paddle.matmul whose batch axes broadcast on both sides raises
"Input dimension size should be equal to 2, but received dimension size is 3"; the forward is right."""
import numpy as np
import paddle

a = paddle.to_tensor(np.ones((2, 1, 3, 4), np.float32), stop_gradient=False)
b = paddle.to_tensor(np.ones((5, 4, 2), np.float32), stop_gradient=False)
out = paddle.matmul(a, b)
print(out.shape)  # [2, 5, 3, 2], right
print(paddle.grad([out], [a, b], grad_outputs=[paddle.ones_like(out)]))  # raises ValueError
