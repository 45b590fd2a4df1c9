"""The in-house engine: every op's gradient against central finite differences in float64, and
the tape's promises (iterative order, accumulation, freeing, dtypes, no_grad)."""
import numpy as np
import pytest

from engine import Tensor, indexing, no_grad, scatter_reduce, sequence, subscript
from engine import ops as E
from suites.judging import gradients

RNG = np.random.default_rng(0)


def positive(shape):
    return RNG.uniform(0.5, 2.0, shape)


def normal(shape):
    return RNG.standard_normal(shape)


# op, inputs (float64), arguments after the tensors
CASES = {
    "add": (E.add, [normal((3, 1)), normal((1, 4))]),
    "sub": (E.sub, [normal((2, 3)), normal((3,))]),
    "mul": (E.mul, [normal((2, 3)), normal((2, 1))]),
    "div": (E.div, [normal((2, 3)), positive((3,))]),
    "pow": (E.pow, [positive((2, 3)), normal((2, 3))]),
    "maximum": (E.maximum, [normal((2, 3)), normal((3,))]),
    "minimum": (E.minimum, [normal((2, 3)), normal((2, 3))]),
    "neg": (E.neg, [normal((4,))]),
    "exp": (E.exp, [normal((2, 3))]),
    "log": (E.log, [positive((2, 3))]),
    "tanh": (E.tanh, [normal((2, 3))]),
    "sigmoid": (E.sigmoid, [normal((2, 3))]),
    "relu": (E.relu, [normal((2, 3))]),
    "abs": (E.abs, [normal((2, 3))]),
    "sqrt": (E.sqrt, [positive((2, 3))]),
    "square": (E.square, [normal((2, 3))]),
    "sum": (lambda x: E.sum(x, axis=1), [normal((2, 3, 2))]),
    "sum-all": (E.sum, [normal((2, 3))]),
    "mean": (lambda x: E.mean(x, axis=(0, 2), keepdims=True), [normal((2, 3, 2))]),
    "max": (lambda x: E.max(x, axis=-1), [normal((3, 4))]),
    "matmul-vv": (E.matmul, [normal((3,)), normal((3,))]),
    "matmul-mv": (E.matmul, [normal((2, 3)), normal((3,))]),
    "matmul-vm": (E.matmul, [normal((3,)), normal((2, 3, 4))]),
    "matmul-batched": (E.matmul, [normal((2, 1, 2, 3)), normal((3, 3, 2))]),
    "mm": (E.mm, [normal((2, 3)), normal((3, 4))]),
    "reshape": (lambda x: E.reshape(x, (3, 2)), [normal((2, 3))]),
    "transpose": (lambda x: E.transpose(x, (2, 0, 1)), [normal((2, 3, 4))]),
    "concat": (lambda a, b: E.concat([a, b], 1), [normal((2, 3)), normal((2, 1))]),
    "stack": (lambda a, b: E.stack([a, b], -1), [normal((2, 3)), normal((2, 3))]),
    "softmax": (lambda x: E.softmax(x, axis=0), [normal((3, 4))]),
    "log_softmax": (E.log_softmax, [normal((3, 4))]),
    "where": (lambda a, b: E.where(np.array([True, False, True]), a, b), [normal((2, 3)), normal((3,))]),
    "masked_fill": (lambda x: sequence.masked_fill(x, np.array([[True, False, False]]), -1e9), [normal((2, 3))]),
    "masked_softmax": (lambda x: sequence.masked_softmax(x, np.array([[1, 1, 0], [0, 0, 0]], bool)), [normal((2, 3))]),
    "pad-constant": (lambda x: sequence.pad(x, [(1, 0), (2, 1)], value=5.0), [normal((2, 3))]),
    "pad-reflect": (lambda x: sequence.pad(x, [(1, 2), (2, 1)], mode="reflect"), [normal((3, 4))]),
    "pad-replicate": (lambda x: sequence.pad(x, [(0, 2), (3, 1)], mode="replicate"), [normal((2, 3))]),
    "pad-symmetric": (lambda x: sequence.pad(x, [(2, 1)], mode="symmetric"), [normal((3,))]),
    "pad_sequences-post": (lambda a, b: sequence.pad_sequences([a, b], max_len=3), [normal((4, 2)), normal((2, 2))]),
    "pad_sequences-pre": (lambda a, b: sequence.pad_sequences([a, b], side="pre", truncate="pre", max_len=3),
                          [normal((4,)), normal((2,))]),
    "index-basic": (lambda x: x[1:, ::2], [normal((3, 5))]),
    "index-advanced": (lambda x: x[np.array([0, 2, 0])], [normal((3, 2))]),
    "index-mixed": (lambda x: x[np.array([1, 0]), :, np.array([2, 2])], [normal((2, 3, 4))]),
    "index-mask": (lambda x: x[np.array([[True, False], [True, True]])], [normal((2, 2))]),
    "index_set": (lambda x, v: subscript.index_set(x, (slice(None), np.array([2, 0])), v),
                  [normal((2, 3)), normal((2,))]),
    "index_add-repeats": (lambda x, v: subscript.index_add(x, (np.array([1, 1, 0]),), v),
                          [normal((2, 3)), normal((3, 3))]),
    **{f"scatter_reduce-{reduce}-{self}": (
        lambda x, s, reduce=reduce, self=self: scatter_reduce.scatter_reduce(
            x, 0, np.array([[0, 1], [0, 1], [2, 1]]), s, reduce, include_self=self), [normal((3, 2)), normal((3, 2))])
       for reduce in ("sum", "prod", "mean", "amax", "amin") for self in (True, False)},
    "scatter_nd": (lambda u: scatter_reduce.scatter_nd(np.array([[1, 0], [1, 0], [2, 1]]), u, (3, 2, 2)),
                   [normal((3, 2))]),
    "gather": (lambda x: indexing.gather(x, 1, np.array([[0, 2, 2], [1, 1, 0]])), [normal((2, 3))]),
    "scatter": (lambda x, s: indexing.scatter(x, 0, np.array([[1, 0, 2]]), s), [normal((3, 3)), normal((2, 3))]),
    "scatter_add": (lambda x, s: indexing.scatter_add(x, 1, np.array([[0, 0], [2, 0]]), s),
                    [normal((2, 3)), normal((2, 2))]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_matches_central_differences(name):
    op, inputs = CASES[name]
    names = [f"x{i}" for i in range(len(inputs))]

    def f(values):
        with no_grad():
            return op(*(Tensor(values[n]) for n in names)).numpy()

    leaves = [Tensor(x, requires_grad=True) for x in inputs]
    out = op(*leaves)
    cotangent = RNG.standard_normal(out.shape)
    out.backward(cotangent)
    for name_i, leaf in zip(names, leaves):
        jac, err = gradients.jacobian(f, dict(zip(names, inputs)), name_i)
        expected = (cotangent.ravel() @ jac).reshape(leaf.shape)
        np.testing.assert_allclose(leaf.grad, expected, rtol=1e-6, atol=1e-7 + np.abs(cotangent).sum() * err.max())


def test_round_and_sign_pass_no_gradient():
    x = Tensor(np.array([0.4, 1.6, -2.5]), requires_grad=True)
    E.sum(E.round(x) * 3 + E.sign(x) + x).backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0]


def test_documented_autograd_examples():
    x = Tensor(np.arange(4.0), requires_grad=True)
    y = 2 * E.matmul(x, x)
    assert y.numpy() == 28.0
    y.backward()
    assert x.grad.tolist() == [0.0, 4.0, 8.0, 12.0]
    # a second backward without zeroing accumulates, as PyTorch's .grad does
    x2 = Tensor(np.ones(4), requires_grad=True)
    E.sum(x2).backward()
    E.sum(x2).backward()
    assert x2.grad.tolist() == [2.0, 2.0, 2.0, 2.0]
    # dz/dx of z = 2 sigmoid(x) at 1 is 2 s (1 - s) = 0.3932
    x3 = Tensor(np.array(1.0), requires_grad=True)
    (2 * E.sigmoid(x3)).backward()
    assert abs(x3.grad - 0.3932) < 1e-4


def test_a_long_chain_does_not_hit_the_recursion_limit():
    x = Tensor(np.array(1.0), requires_grad=True)
    y = x
    for _ in range(10_000):
        y = y * 1.0001
    y.backward()
    assert np.isclose(x.grad, 1.0001 ** 10_000)


def test_the_graph_is_freed_after_backward():
    x = Tensor(np.ones(3), requires_grad=True)
    y = E.sum(E.exp(x))
    y.backward()
    assert y._parents == () and y._backward is None
    with pytest.raises(RuntimeError, match="non-scalar"):
        E.exp(x).backward()


def test_dtypes_are_kept_through_ops_and_gradients():
    a = Tensor(np.ones((2, 3), np.float32), requires_grad=True)
    out = E.sum(2.5 * E.softmax(E.matmul(a, np.ones((3, 2), np.float32))) - 1)
    assert out.dtype == np.float32
    out.backward()
    assert a.grad.dtype == np.float32


def test_no_grad_and_stop_gradient_record_nothing():
    x = Tensor(np.ones(2), requires_grad=True)
    with no_grad():
        assert not E.exp(x).requires_grad
    y = E.sum(x * E.stop_gradient(x * 3))
    y.backward()
    assert x.grad.tolist() == [3.0, 3.0]  # the stopped branch contributes nothing


def test_straight_through_estimator():
    # quantized = x + stop_gradient(round(x) - x): value round(x), gradient identity
    x = Tensor(np.array([0.2, 1.7]), requires_grad=True)
    q = x + E.stop_gradient(E.round(x) - x)
    assert q.numpy().tolist() == [0.0, 2.0]
    E.sum(q * np.array([3.0, 5.0])).backward()
    assert x.grad.tolist() == [3.0, 5.0]


def test_documented_mask_and_padding_examples():
    T, F = True, False
    assert sequence.sequence_mask(np.array([3, 5, 4]), 5).numpy().tolist() == \
        [[T, T, T, F, F], [T, T, T, T, T], [T, T, T, T, F]]
    assert sequence.sequence_mask(np.array([4, 2, 1]), 4).numpy().tolist() == \
        [[T, T, T, T], [T, T, F, F], [T, F, F, F]]
    assert sequence.causal_mask(3).numpy().tolist() == [[T, F, F], [T, T, F], [T, T, T]]
    seg = np.array([[1, 1, 1, 2, 2, 2, 2, 0, 0, 0]])  # tensor2tensor packing: inputs_segmentation
    mask = sequence.segment_mask(seg).numpy()[0]
    assert mask[0].tolist() == [T, T, T, F, F, F, F, F, F, F]
    assert mask[4].tolist() == [F, F, F, T, T, T, T, F, F, F]
    assert not mask[8].any()  # padding attends to nothing
    filled = sequence.masked_fill(np.ones((3, 5)), ~sequence.sequence_mask(np.array([3, 5, 4]), 5).numpy(), -np.inf)
    assert np.argwhere(np.isinf(filled.numpy())).tolist() == [[0, 3], [0, 4], [2, 4]]
    assert sequence.pad_sequences([np.array([1, 2, 3]), np.array([3, 4])]).numpy().tolist() == [[1, 2, 3], [3, 4, 0]]
    assert sequence.pad_sequences([np.ones(4), np.ones(2), np.ones(1)]).numpy().tolist() == \
        [[1, 1, 1, 1], [1, 1, 0, 0], [1, 0, 0, 0]]


def test_documented_scatter_examples():
    # one-hot encodings = zeros(N, K).scatter_(1, indices[:, None], 1)
    indices = np.array([1, 0, 3])
    encodings = indexing.scatter(np.zeros((3, 4)), 1, indices[:, None], 1.0).numpy()
    assert encodings.tolist() == indexing.one_hot(indices, 4).numpy().tolist()
    # self[index[i][j]][j] = src[i][j] for dim 0
    src = np.arange(1.0, 11.0).reshape(2, 5)
    out = indexing.scatter(np.zeros((3, 5)), 0, np.array([[0, 1, 2, 0]]), src).numpy()
    assert out.tolist() == [[1, 0, 0, 4, 0], [0, 2, 0, 0, 0], [0, 0, 3, 0, 0]]  # the torch.Tensor.scatter_ docs
    # scatter_add with duplicate indices sums exactly
    assert indexing.scatter_add(np.zeros(3), 0, np.array([0, 0, 2, 0]), np.ones(4)).numpy().tolist() == [3, 0, 1]
    with pytest.raises(IndexError, match="out of range"):
        indexing.gather(np.zeros((2, 2)), 1, np.array([[0, 2]]))
