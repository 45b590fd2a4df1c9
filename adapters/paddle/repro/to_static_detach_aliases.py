"""Inside paddle.jit.to_static, Tensor.detach() of a function's input shares the input's memory so
that even a copy of it (clone() or paddle.assign) does not copy: the running statistics that
paddle.nn.functional.batch_norm updates in place in training are written through into the
caller's tensors (m 5 -> 4.7, v 2 -> 1.9 below). Eagerly, and with a copy of the input itself
(paddle.assign(m), m.clone()), the caller's tensors keep their values."""
import numpy as np
import paddle

F = paddle.nn.functional


def detach_assign(x, m, v):
    return F.batch_norm(x, paddle.assign(m.detach()), paddle.assign(v.detach()), training=True, epsilon=1e-5)


def detach_clone(x, m, v):
    return F.batch_norm(x, m.detach().clone(), v.detach().clone(), training=True, epsilon=1e-5)


def assign(x, m, v):
    return F.batch_norm(x, paddle.assign(m), paddle.assign(v), training=True, epsilon=1e-5)


def clone(x, m, v):
    return F.batch_norm(x, m.clone(), v.clone(), training=True, epsilon=1e-5)


for program in (detach_assign, detach_clone, assign, clone):
    for mode in ("eager", "to_static"):
        x = paddle.to_tensor(np.array([[1.0], [3.0]]))
        m, v = paddle.to_tensor(np.array([5.0])), paddle.to_tensor(np.array([2.0]))
        (program if mode == "eager" else paddle.jit.to_static(program, full_graph=True))(x, m, v)
        print(f"{program.__name__:14} {mode:9} m: {m.numpy()} v: {v.numpy()}")  # detach_* in to_static: 4.7, 1.9
