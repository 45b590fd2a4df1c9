"""What paddle.jit.to_static(full_graph=True) computes where eager Paddle computes something
else, one case per argument (PaddlePaddle 3.3.1, CPU); each prints the eager result beside the
translated one:

    python to_static_findings.py magic_number       a one-element result equal to 1.77113e27 comes back
                                                    as None: to_static's marker of "no return value"
                                                    (RETURN_NO_VALUE_MAGIC_NUM, compared in the result's
                                                    dtype), so in float16 every [+inf], exp([12]) too
    python to_static_findings.py subtract_uint8     uint8 x - y: eagerly no kernel; translated, an
                                                    internal error ("[operator < run_program > error]")
    python to_static_findings.py tensordot_int32    tensordot refuses int32 (TypeError); eagerly it runs
    python to_static_findings.py attention_float64  scaled_dot_product_attention at float32's precision
    python to_static_findings.py scale_float64      float64 x * 0.1 (a Python float) at float32's precision
    python to_static_findings.py soft_label_grad    cross_entropy(soft_label=True): label gradient zeros (eager: None)
    python to_static_findings.py running_stats_grad batch_norm's running statistics' gradients zeros (eager: None)
    python to_static_findings.py integer_grad       paddle.grad of x * x for int32 x: [2, 4, 6] (eager refuses)
    python to_static_findings.py where_int_float    where(m, int64 0-d, float32 [1]): float32 (eager: TypeError)

and two the runs met in the compiled mode that eager Paddle shares:

    python to_static_findings.py cross_entropy_65   cross_entropy of float32 logits [65, 0], label 1: 64, not 65
    python to_static_findings.py put_along_multiply put_along_axis(reduce='multiply')'s gradient is NaN at a 0
"""
import sys

import numpy as np
import paddle

F = paddle.nn.functional
T = paddle.to_tensor


def translated(fn):
    """fn eagerly, and as to_static(full_graph=True) translates it: a named function of one dict
    of tensors (to_static takes no *args; of a lambda it raises: to_static_lambda.py)."""
    def program(env):
        return fn(*(env[i] for i in range(len(env))))

    static = paddle.jit.to_static(program, full_graph=True)
    return (("eager:    ", fn), ("to_static:", lambda *xs: static(dict(enumerate(xs)))))


def both(fn, *args):
    """fn's result eagerly and translated, or the error each raises."""
    out = []
    for label, run in translated(fn):
        try:
            out.append(run(*args))
        except Exception as error:  # the finding is the error
            out.append(f"{type(error).__name__}: {str(error).strip().splitlines()[-1][:200]}")
        print(label, out[-1])
    return out


def grads(fn, wrt, *args):
    """The gradients paddle.grad gives of sum(fn(*args)) for the args at positions `wrt`."""
    for label, run in translated(fn):
        leaves = [T(a.numpy(), stop_gradient=False) if i in wrt else a for i, a in enumerate(args)]
        try:
            got = paddle.grad([run(*leaves).sum()], [leaves[i] for i in wrt], allow_unused=True)
            print(label, [None if g is None else g.numpy().tolist() for g in got])
        except Exception as error:  # the finding is the error
            print(label, f"{type(error).__name__}: {str(error).strip().splitlines()[0][:200]}")


def magic_number():
    both(paddle.exp, T(np.array([12.0], np.float16)))
    both(lambda x: x * 1, T(np.array([1.77113e27], np.float32)))
    both(lambda x: x * 1, T(np.array([1.77113e27, 1.0], np.float32)))  # two elements: returned


def attention_float64():
    rng = np.random.default_rng(0)
    q, k, v = (T(rng.normal(size=(1, 4, 1, 8))) for _ in range(3))
    eager, static = both(F.scaled_dot_product_attention, q, k, v)
    print("relative difference:", float(((eager - static).abs().max() / eager.abs().max()).item()))


def scale_float64():
    eager, static = both(lambda x: x * 0.1, T(np.array([3.0])))
    print("exact 0.30000000000000004; differences:", (eager - static).item())


def cross_entropy_65():
    logits = np.zeros((1, 2), np.float32)
    logits[0, 0] = 65.0
    both(lambda x, y: F.cross_entropy(x, y), T(logits), T(np.array([1])))
    print("exact: 65.0 (log(1 + e^65) - 0)")


CASES = {
    "magic_number": magic_number,
    "subtract_uint8": lambda: both(lambda x, y: x - y, T(np.array([1, 5], np.uint8)), T(np.array([2, 3], np.uint8))),
    "tensordot_int32": lambda: both(lambda x, y: paddle.tensordot(x, y, axes=1),
                                    T(np.ones((2, 3), np.int32)), T(np.ones((3, 2), np.int32))),
    "attention_float64": attention_float64,
    "scale_float64": scale_float64,
    "cross_entropy_65": cross_entropy_65,
    "put_along_multiply": lambda: grads(
        lambda x, v: paddle.put_along_axis(x, T(np.array([[0], [1]])), v, 1, reduce="multiply", include_self=True,
                                           broadcast=False), [0, 1],
        T(np.array([[0.0, 2.0], [3.0, 4.0]])), T(np.array([[5.0], [0.0]]))),
    "soft_label_grad": lambda: grads(lambda x, p: F.cross_entropy(x, p, soft_label=True), [0, 1],
                                     T(np.array([[1.0, 2.0, 3.0]])), T(np.array([[0.0, 1.0, 0.0]]))),
    "running_stats_grad": lambda: grads(lambda x, m, s: F.batch_norm(x, m, s, training=False), [0, 1, 2],
                                        T(np.array([[1.0, 2.0], [3.0, 5.0]])), T(np.array([0.5, 1.0])),
                                        T(np.array([2.0, 3.0]))),
    "where_int_float": lambda: both(paddle.where, T(np.array(False)), T(np.array(0, np.int64)),
                                    T(np.array([0.5], np.float32))),
    "integer_grad": lambda: grads(lambda x: x * x, [0], T(np.array([1, 2, 3], np.int32))),
}

if __name__ == "__main__":
    CASES[sys.argv[1]]()
