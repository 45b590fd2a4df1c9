"""x[i] with an index past the end does not raise on CPU: it reads memory outside the tensor
(x = [1, 2, 3], i = [3] gave 2.0 in one run and 0.00064 in another)."""
import numpy as np
import paddle

x = paddle.to_tensor(np.array([1.0, 2.0, 3.0], np.float32))
print(x[paddle.to_tensor([3])].numpy())  # expected an IndexError, as numpy and torch raise
