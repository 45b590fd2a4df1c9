"""The vocabulary's records hold every op to a contract, a sample, a reference, an engine
implementation and a spec; docs/vocabulary.md is generated from them."""
import pathlib

import pytest

import adapters
import vocabulary
from adapters.base import OPS, Adapter
from adapters.engine import EngineAdapter
from adapters.reference import ReferenceAdapter
from suites.__main__ import vocabulary_page
from suites.loading.specs import load_path
from suites.programs import expr
from suites.running import coverage
from vocabulary import arrayapi

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def called_by_specs() -> set:
    """Every op that some spec's expression (or its metamorphic `equals`) calls."""
    return set().union(*(s.program.ops() for s in load_path(ROOT / "specs")))


@pytest.mark.parametrize("name", OPS)
def test_every_op_is_complete(name, called_by_specs):
    op = vocabulary.VOCABULARY[name]
    assert op.semantics.strip(), f"{name}: no semantics"
    args, kwargs = op.sample("float32")
    assert isinstance(args, list) and isinstance(kwargs, dict), f"{name}: its sample is not (args, kwargs)"
    assert getattr(ReferenceAdapter, name) is not getattr(Adapter, name), f"{name}: no reference implementation"
    assert getattr(EngineAdapter, name) is not getattr(Adapter, name), f"{name}: no engine implementation"
    assert name in called_by_specs, f"{name}: no spec calls it"


def test_tables_derive_from_the_records():
    from suites.judging import compare
    from suites.programs import program
    from suites.running import coverage

    assert set(expr.NUMBER_OPERANDS) == {"add", "sub", "mul", "div", "maximum", "minimum", "pow", "greater",
                                         "floor_divide", "remainder", "equal", "not_equal", "less", "less_equal",
                                         "greater_equal", "bitwise_and", "bitwise_or", "bitwise_xor",
                                         "bitwise_invert", "bitwise_left_shift", "bitwise_right_shift"}
    assert set(compare.RULES) == vocabulary.having("bound")
    assert program.PARTS == {"lstm": ("output", "h_n", "c_n"), "gru": ("output", "h_n"),
                             "batch_norm_stats": ("running_mean", "running_var"),
                             "multi_head_attention_weights": ("output", "weights"),
                             "init_linear": ("weight", "bias"), "init_conv2d": ("weight", "bias"),
                             "clip_grad_norm": ("a", "b"), "meshgrid": ("grid_x", "grid_y"),
                             "slogdet": ("sign", "logabsdet"), "eigh": ("eigenvalues", "eigenvectors"),
                             "svd": ("U", "S", "Vh"), "qr": ("Q", "R"),
                             "unique_counts": ("values", "counts"), "unique_inverse": ("values", "inverse_indices"),
                             "unique_all": ("values", "indices", "inverse_indices", "counts"),
                             **dict.fromkeys(("init_lstm", "init_gru"), ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0",
                                                                         "bias_hh_l0"))}
    # the set functions' index parts in the standard's index dtype, their values in the dtype under test
    assert program.PART_DTYPES == {"unique_counts": (None, "int64"), "unique_inverse": (None, "int64"),
                                   "unique_all": (None, "int64", "int64", "int64")}
    assert {op for op in program.RANDOM_OPS if not op.startswith("init_")} == set()  # the initializers alone
    assert coverage.NO_DTYPE == {"causal_mask"}


def test_default_methods_carry_the_contract():
    assert Adapter.pad.__doc__ == vocabulary.VOCABULARY["pad"].semantics
    assert str(vocabulary.VOCABULARY["sum"].parameters) == "(self, x, axis=None, keepdims=False)"
    with pytest.raises(Exception, match="does not implement matmul"):
        Adapter().matmul(1, 2)


def test_the_vocabulary_page_is_current():
    page = (ROOT / "docs" / "vocabulary.md").read_text(encoding="utf-8")
    assert page == vocabulary_page(), "docs/vocabulary.md is stale: python -m suites vocabulary --write"


def test_the_array_api_page_is_current_and_counts_the_standard():
    page = (ROOT / "docs" / "array-api.md").read_text(encoding="utf-8")
    assert page == coverage.array_api_page(adapters.classes()), \
        "docs/array-api.md is stale: python -m suites vocabulary --write"
    # the standard's 2024.12 text: 170 functions in its sections and extensions (matmul, matrix_transpose,
    # tensordot and vecdot twice: in linear algebra and in the linalg extension)
    assert len(arrayapi.functions()) == 170
    assert "| atan2 | atan2 |" in page and "| divide | div |" in page and "| vecdot | vecdot |" in page
    assert "| fftshift | fftshift |" in page and "| fft | none yet |" in page
