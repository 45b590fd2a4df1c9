"""The float64 oracle against documented examples and against NumPy's own matmul."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from adapters.reference import ReferenceAdapter
from engine import sorting
from engine.tensor import Tensor

REF = ReferenceAdapter()


@pytest.mark.parametrize("a, b, result", [  # the PyTorch matmul docs' table
    ((3,), (3,), ()), ((3, 4), (4,), (3,)), ((10, 3, 4), (4,), (10, 3)),
    ((10, 3, 4), (10, 4, 5), (10, 3, 5)), ((10, 3, 4), (4, 5), (10, 3, 5)),
])
def test_matmul_shapes_from_the_docs(a, b, result):
    assert REF.matmul(np.ones(a), np.ones(b)).shape == result


def test_matmul_values():
    assert REF.matmul(np.array([1.0, 2, 3]), np.array([4.0, 5, 6])) == 32
    assert REF.mm(np.ones((2, 3)), np.ones((3, 4))).shape == (2, 4)


@pytest.mark.parametrize("a, b", [((10, 3, 4), (4, 5)), ((3,), (3, 4)), ((2, 3), (4, 5))])
def test_mm_is_strict(a, b):
    with pytest.raises(ValueError, match="mm: needs"):
        REF.mm(np.ones(a), np.ones(b))


def test_matmul_rejects_mismatch_and_scalars():
    with pytest.raises(ValueError, match="contracted dimensions differ"):
        REF.matmul(np.ones((3, 4)), np.ones(5))
    with pytest.raises(ValueError, match="scalar"):
        REF.matmul(np.ones(()), np.ones(3))


@given(hnp.mutually_broadcastable_shapes(signature="(m?,n),(n,p?)->(m?,p?)", max_dims=4, max_side=4),
       st.integers(0, 2**32 - 1))
def test_matmul_agrees_with_numpy(shapes, seed):
    rng = np.random.default_rng(seed)
    a, b = (rng.standard_normal(s) for s in shapes.input_shapes)
    out = REF.matmul(a, b)
    assert out.shape == shapes.result_shape
    np.testing.assert_allclose(out, np.matmul(a, b), rtol=1e-12, atol=1e-12)


def test_broadcasting_docs_example():
    assert REF.add(np.arange(3).reshape(3, 1), np.arange(2).reshape(1, 2)).tolist() == [[0, 1], [1, 2], [2, 3]]


def test_axis_lists_from_specs():
    x = np.arange(24.0).reshape(2, 3, 4)
    assert REF.sum(x, axis=[0, 2]).tolist() == x.sum(axis=(0, 2)).tolist()


def test_no_bfloat16_and_no_autodiff():
    from adapters.base import Unsupported

    with pytest.raises(Unsupported, match="bfloat16"):
        REF.asarray(np.ones(2), "bfloat16", "cpu")
    with pytest.raises(Unsupported, match="finite-difference oracle"):
        REF.grad(lambda x: x, {"x": np.ones(1)}, ["x"], np.ones(1))


@pytest.mark.parametrize("op", ["unique", "unique_values"])
def test_float16_distinct_values_are_each_once(op):
    """1000 elements of -1 with one -0 among them have two distinct values in every dtype; NumPy
    2.4's float16 quicksort left them unsorted on an AMD EPYC, and np.unique repeated -1 in the
    reference and the engine alike."""
    x = np.full(1000, -1, np.float16)
    x[500] = -0.0
    for out in (getattr(REF, op)(x), getattr(sorting, op)(Tensor(x)).data):  # the reference's, the engine's
        assert out.dtype == np.float16 and sorted(out.tolist()) == [-1.0, 0.0]
