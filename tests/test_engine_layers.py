"""engine.layers and engine.pooling: reverse mode against central finite differences in float64,
values against the reference, the options a primitive's own backward has to get right."""
import numpy as np
import pytest

from adapters.reference import ReferenceAdapter
from engine import Tensor, layers, linalg, manipulation, matrices, pooling, special, statistics
from engine import ops as E
from tests.test_engine_nn import check_gradients

RNG = np.random.default_rng(7)
REF = ReferenceAdapter()


def normal(*shape):
    return RNG.standard_normal(shape)


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu(approximate):
    x = normal(3, 4) * 3
    check_gradients(lambda x: layers.gelu(x, approximate), {"x": x})
    np.testing.assert_allclose(layers.gelu(Tensor(x), approximate).numpy(), REF.gelu(x, approximate), rtol=1e-15)


@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm(affine):
    x, w, b = normal(2, 3, 5), normal(5), normal(5)
    if affine:
        check_gradients(lambda x, w, b: layers.layer_norm(x, w, b), {"x": x, "w": w, "b": b})
    else:
        check_gradients(lambda x: layers.layer_norm(x), {"x": x})


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm(training):
    x, m, v, w, b = normal(4, 3, 2, 2), normal(3), normal(3) ** 2 + 0.5, normal(3), normal(3)
    check_gradients(lambda x, m, v, w, b: layers.batch_norm(x, m, v, w, b, training), {"x": x, "m": m, "v": v, "w": w,
                                                                                       "b": b})
    np.testing.assert_allclose(layers.batch_norm(Tensor(x), m, v, w, b, training).numpy(),
                               REF.batch_norm(x, m, v, w, b, training), rtol=1e-13)


def test_batch_norm_stats_are_torchs_unbiased_update():
    x = np.array([[1.0], [3.0]])  # mean 2, unbiased variance 2
    mean, var = layers.batch_norm_stats(x, np.zeros(1), np.ones(1), momentum=0.1)
    np.testing.assert_allclose([mean.numpy()[0], var.numpy()[0]], [0.2, 1.1], rtol=1e-15)


def test_cross_entropy_reductions_and_ignored_rows():
    logits, target = normal(4, 3), np.array([0, 2, 1, 2])
    for kwargs in ({}, {"reduction": "sum", "label_smoothing": 0.1}, {"reduction": "none", "ignore_index": 2}):
        check_gradients(lambda x: layers.cross_entropy(x, target, **kwargs), {"x": logits})
        np.testing.assert_allclose(layers.cross_entropy(Tensor(logits), target, **kwargs).numpy(),
                                   REF.cross_entropy(logits, target, **kwargs), rtol=1e-14)


def test_dot_product_attention_with_mask_bias_and_causal():
    q, k, v, bias = normal(1, 2, 3, 4), normal(1, 2, 3, 4), normal(1, 2, 3, 4), normal(1, 2, 3, 3)
    mask = np.array([[True, False, True], [False, False, False], [True, True, False]])
    check_gradients(lambda q, k, v, bias: layers.dot_product_attention(q, k, v, mask, bias, causal=True),
                    {"q": q, "k": k, "v": v, "bias": bias})
    out = layers.dot_product_attention(Tensor(q), Tensor(k), Tensor(v), mask).numpy()
    assert np.all(out[:, :, 1] == 0), "a query with no key to attend to gets 0"


def test_embedding_adds_repeated_rows():
    weight = Tensor(normal(4, 2), requires_grad=True)
    E.sum(layers.embedding(np.array([1, 1, 3]), weight)).backward()
    assert weight.grad[:, 0].tolist() == [0.0, 2.0, 0.0, 1.0]
    with pytest.raises(IndexError):
        layers.embedding(np.array([4]), weight)


def test_embedding_padding_row_gets_no_gradient():
    weight = Tensor(normal(4, 2), requires_grad=True)
    out = layers.embedding(np.array([3, 1, 3, 1]), weight, padding_idx=-1)
    np.testing.assert_array_equal(out.numpy(), weight.data[[3, 1, 3, 1]])  # the padding row still looks up
    E.sum(out).backward()
    assert weight.grad[:, 0].tolist() == [0.0, 2.0, 0.0, 0.0]


@pytest.mark.parametrize("kwargs", [{"stride": 2, "padding": 1, "ceil_mode": True},
                                    {"stride": (2, 1), "padding": "same"}, {"stride": 1},
                                    {"stride": 2, "padding": 1, "count_include_pad": False}])
def test_pooling(kwargs):
    x = normal(2, 3, 5, 6)
    check_gradients(lambda x: pooling.avg_pool2d(x, 3, **kwargs), {"x": x})
    np.testing.assert_allclose(pooling.avg_pool2d(Tensor(x), 3, **kwargs).numpy(), REF.avg_pool2d(x, 3, **kwargs),
                               rtol=1e-14, atol=1e-15)
    kwargs.pop("count_include_pad", None)
    x = RNG.permutation(x.size).reshape(x.shape) / 10  # values 0.1 apart: no finite-difference step crosses a tie
    check_gradients(lambda x: pooling.max_pool2d(x, 3, **kwargs), {"x": x})
    assert np.array_equal(pooling.max_pool2d(Tensor(x), 3, **kwargs).numpy(), REF.max_pool2d(x, 3, **kwargs))


def test_one_dimensional_pooling_and_cumsum():
    x = normal(2, 3, 9)
    check_gradients(lambda x: pooling.max_pool1d(x, 3, 2, 1), {"x": RNG.permutation(x.size).reshape(x.shape) / 10})
    check_gradients(lambda x: pooling.avg_pool1d(x, 3, 2, 1, True), {"x": x})
    check_gradients(lambda x: E.cumsum(x, 1), {"x": x})


def test_products_and_differences_along_an_axis():
    """prod and cumprod with a zero among the elements (their gradients take no division), and
    diff of every order up to past the axis' length, with prepend and append."""
    x = normal(2, 4, 3)
    x[0, 1, :] = 0.0
    for axis in (0, 1, -1):
        check_gradients(lambda x: statistics.prod(x, axis), {"x": x})
        check_gradients(lambda x: statistics.cumprod(x, axis), {"x": x})
    for n in range(6):
        check_gradients(lambda x, p, a: statistics.diff(x, 1, n, p, a),
                        {"x": x, "p": normal(2, 1, 3), "a": normal(2, 2, 3)})
        np.testing.assert_array_equal(statistics.diff(Tensor(x), -1, n).numpy(), np.diff(x, n, -1))


def test_manipulations_move_the_cotangent_back():
    """The manipulation functions against NumPy's, and their gradients (copies' cotangents summed)."""
    x = normal(2, 1, 3)
    for fn, numpy_fn in ((lambda x: manipulation.flip(x, (0, 2)), lambda x: np.flip(x, (0, 2))),
                         (lambda x: manipulation.roll(x, (4, -1), (2, 0)), lambda x: np.roll(x, (4, -1), (2, 0))),
                         (lambda x: manipulation.roll(x, 5), lambda x: np.roll(x, 5)),
                         (lambda x: manipulation.squeeze(x, -2), lambda x: np.squeeze(x, -2)),
                         (lambda x: manipulation.expand_dims(x, -4), lambda x: np.expand_dims(x, -4)),
                         (lambda x: manipulation.moveaxis(x, (0, 2), (-1, 0)),
                          lambda x: np.moveaxis(x, (0, 2), (-1, 0))),
                         (lambda x: manipulation.broadcast_to(x, (4, 2, 1, 3)),
                          lambda x: np.broadcast_to(x, (4, 2, 1, 3))),
                         (lambda x: manipulation.tile(x, (2, 1, 2, 1)), lambda x: np.tile(x, (2, 1, 2, 1))),
                         (lambda x: manipulation.tile(x, (3,)), lambda x: np.tile(x, (3,))),
                         (lambda x: manipulation.repeat(x, (2, 0, 1), axis=-1), lambda x: np.repeat(x, (2, 0, 1), -1)),
                         (lambda x: manipulation.repeat(x, 2), lambda x: np.repeat(x, 2)),
                         (lambda x: manipulation.unstack(x, -1)[1], lambda x: np.moveaxis(x, -1, 0)[1])):
        np.testing.assert_array_equal(fn(Tensor(x)).numpy(), numpy_fn(x))
        check_gradients(fn, {"x": x})


def test_matrix_functions_against_numpy_and_their_gradients():
    """take (a repeated and a negative index), matrix_transpose, vecdot (broadcast, along -2), tril
    and triu against NumPy's, and their gradients (a repeated index's cotangents added up)."""
    x, v = normal(2, 3, 4), normal(3, 1)
    for fn, numpy_fn in ((lambda x: matrices.take(x, np.array([2, -1, 2]), axis=1),
                          lambda x: np.take(x, [2, -1, 2], axis=1)),
                         (lambda x: matrices.take(x, np.array([5, 0, -24])), lambda x: np.take(x, [5, 0, -24])),
                         (matrices.matrix_transpose, np.matrix_transpose),
                         (lambda x: matrices.vecdot(x, Tensor(v), axis=-2), lambda x: np.vecdot(x, v, axis=-2)),
                         (lambda x: matrices.tril(x, -1), lambda x: np.tril(x, -1)),
                         (lambda x: matrices.triu(x, 2), lambda x: np.triu(x, 2))):
        np.testing.assert_array_equal(fn(Tensor(x)).numpy(), numpy_fn(x))
        check_gradients(fn, {"x": x})
    check_gradients(lambda v: matrices.vecdot(Tensor(x), v, axis=-2), {"v": v})



def test_linalg_functions_against_numpy_and_their_gradients():
    """diagonal and trace (offsets above, below and past the matrix), outer, cross (broadcast,
    along axis 0) and matrix_power (0, 3 and -2) against NumPy's, and their gradients."""
    x, y, u, w = normal(2, 3, 4), normal(3, 2), normal(3), normal(3, 1)
    square = normal(2, 3, 3) + 3 * np.eye(3)  # well conditioned: the inverse's finite differences hold
    cases = [(x, lambda x, k=k: linalg.diagonal(x, k), lambda x, k=k: np.diagonal(x, k, -2, -1)) for k in (0, 2, -1)]
    cases += [(x, lambda x, k=k: linalg.trace(x, k), lambda x, k=k: np.trace(x, k, -2, -1)) for k in (0, 1, -2)]
    cases += [(u, lambda x: linalg.outer(x, Tensor(w[:, 0])), lambda x: np.outer(x, w[:, 0])),
              (y, lambda x: linalg.cross(x, Tensor(w), axis=0), lambda x: np.cross(x, w, axis=0)),
              (u, lambda x: linalg.cross(Tensor(y.T), x), lambda x: np.cross(y.T, x))]
    cases += [(square, lambda x, n=n: linalg.matrix_power(x, n), lambda x, n=n: np.linalg.matrix_power(x, n))
              for n in (0, 3, -2)]
    for value, fn, numpy_fn in cases:
        np.testing.assert_allclose(fn(Tensor(value)).numpy(), numpy_fn(value), rtol=1e-12)
        check_gradients(fn, {"x": value})
    check_gradients(lambda w: linalg.cross(Tensor(y), w, axis=0), {"w": w})
    assert linalg.diagonal(Tensor(x), 5).numpy().shape == (2, 0)  # past the matrix: empty
    np.testing.assert_array_equal(linalg.trace(Tensor(x), -3).numpy(), np.zeros(2))


def test_vector_norm_against_numpy_scaled_and_its_gradients():
    """vector_norm for every ord and kind of axis against numpy.linalg.norm of the vector the axes
    hold (NumPy reads two axes as a matrix: the standard does not), without overflow or underflow
    where the squares would, and torch's gradients: sign(x) |x|^(p-1) / norm^(p-1), ord inf's
    split between ties."""
    x = normal(3, 4)
    for ord in (1, 2, 3, 0.5, np.inf, -np.inf, 0, -1):
        for axis, expected in ((None, np.linalg.norm(x.ravel(), ord)), ((0, -1), np.linalg.norm(x.ravel(), ord)),
                               (-1, np.linalg.norm(x, ord, axis=-1)), (0, np.linalg.norm(x, ord, axis=0))):
            np.testing.assert_allclose(linalg.vector_norm(Tensor(x), axis, ord=ord).numpy(), expected, rtol=1e-12)
            assert linalg.vector_norm(Tensor(x), axis, True, ord).numpy().ndim == 2
    for ord in (1, 2, 3):
        for axis in (None, -1, [0, 1]):
            check_gradients(lambda x, ord=ord, axis=axis: linalg.vector_norm(x, axis, ord=ord), {"x": x})
    for scale in (1e30, 1e-30):
        huge = Tensor(np.array([3, 4], np.float32) * np.float32(scale))
        np.testing.assert_allclose(linalg.vector_norm(huge).numpy(), 5 * scale, rtol=1e-6)
    ties = Tensor(np.array([3.0, -3.0, 1.0]), requires_grad=True)
    linalg.vector_norm(ties, ord=np.inf).backward()
    np.testing.assert_array_equal(ties.grad, [0.5, -0.5, 0.0])


@pytest.mark.parametrize("ord", [1, 2, 3, 0.5, 0, -1, -2])
def test_vector_norm_of_an_empty_vector_is_numpys_in_the_engine_and_the_reference(ord):
    """The empty sum's identity: 0 for p > 0 and 0^(1/p) = inf for p < 0, as NumPy's; both took the
    scaling's largest element of nothing and raised."""
    empty = np.zeros((2, 0))
    with np.errstate(divide="ignore"):  # NumPy's 0 ** (1 / p) for p < 0
        expected = np.linalg.vector_norm(empty, axis=-1, ord=ord)
    np.testing.assert_array_equal(linalg.vector_norm(Tensor(empty), -1, ord=ord).numpy(), expected)
    np.testing.assert_array_equal(REF.vector_norm(empty, -1, False, ord), expected)


def test_vectorised_erfc_is_within_1e_10_of_math_erfc():
    """engine.special.erfc (GELU's, for float32 and narrower results) against math.erfc per element."""
    z = np.concatenate([np.linspace(-30, 30, 200_001), np.linspace(3.9, 4.1, 2001), [0.0, -0.0, 1e-300]])
    exact = special.exact_erfc(z)
    relative = np.abs(special.erfc(z) - exact) / np.maximum(exact, np.finfo(np.float64).tiny)
    assert relative.max() < 1e-10
    assert special.erfc(np.array([np.inf, -np.inf])).tolist() == [0.0, 2.0] and np.isnan(special.erfc(np.nan))
