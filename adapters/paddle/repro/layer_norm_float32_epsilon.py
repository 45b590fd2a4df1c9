"""F.layer_norm and F.batch_norm in float64 add epsilon rounded to float32 (their epsilon is a
float32 attribute): layer_norm([-1, 1], eps=1e-5) gives 0.9999950000376261 where
1 / sqrt(1 + 1e-5) = 0.9999950000374997 (1 / sqrt(1 + float32(1e-5)) = 0.99999500003762...)."""
import numpy as np
import paddle

x = paddle.to_tensor(np.array([[-1.0, 1.0]]))
print(repr(paddle.nn.functional.layer_norm(x, [2], epsilon=1e-5).numpy()[0, 1]))
print(repr(1 / np.sqrt(1 + 1e-5)), repr(1 / np.sqrt(1 + np.float64(np.float32(1e-5)))))
