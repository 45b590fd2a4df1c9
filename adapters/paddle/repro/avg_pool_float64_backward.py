"""The backward of F.avg_pool2d in float64 divides by the window size in float32: each gradient
of a 3 x 3 window is 0.1111111119389534 (float32's 1/9), not 1/9 = 0.111111111111..."""
import numpy as np
import paddle

x = paddle.to_tensor(np.ones((1, 1, 3, 3)), stop_gradient=False)
out = paddle.nn.functional.avg_pool2d(x, 3)
print(repr(paddle.grad([out], [x])[0].numpy()[0, 0, 0, 0]), repr(1 / 9))
