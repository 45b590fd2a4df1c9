"""Hypothesis strategies for spec inputs, and the seeded filler for explicit examples.

Shapes come from the spec's gufunc signature through
hypothesis.extra.numpy.mutually_broadcastable_shapes (never a hand-written broadcasting
generator). Every value is exactly representable in the dtype under test, so the float64
reference sees exactly what the framework sees. Subnormal inputs are not drawn: XLA and
TensorFlow flush them to zero on CPU by design, which is a separate question from an op's
semantics.
"""
import math

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from suites.compare import is_float, round_to

WIDTH = {"float16": 16, "bfloat16": 32, "float32": 32, "float64": 64}
DEFAULT_MAX_SIZE = 4096


def magnitudes(hyp: dict, dtype: str) -> list:
    """The spec's value magnitudes for `dtype` (a list for all dtypes, or a map per dtype)."""
    m = hyp.get("magnitudes", [1])
    return m.get(dtype, [1]) if isinstance(m, dict) else m


def array(dtype: str, shape, magnitude):
    """Arrays of `shape` with values in [-magnitude, magnitude], exact in `dtype` (float64 or int)."""
    if dtype == "bool":
        return hnp.arrays(np.bool_, shape)
    if not is_float(dtype):
        m = int(magnitude)
        return hnp.arrays(np.int64, shape, elements=st.integers(-m, m))
    magnitude = _at_most(magnitude, dtype)
    elements = st.floats(-magnitude, magnitude, width=WIDTH[dtype], allow_nan=False, allow_infinity=False,
                         allow_subnormal=False)
    storage = np.float32 if dtype == "bfloat16" else np.dtype(dtype)
    return hnp.arrays(storage, shape, elements=elements).map(lambda x: round_to(x, dtype))


def _at_most(magnitude: float, dtype: str) -> float:
    """The largest number of the storage width that does not exceed `magnitude`."""
    storage = np.dtype("float32" if dtype == "bfloat16" else dtype).type
    m = storage(magnitude)
    return float(np.nextafter(m, storage(0)) if m > magnitude else m)


def spec_inputs(spec, dtype: str):
    """A strategy for one case of the spec: {arg name: exact array}."""
    hyp = spec.data["hypothesis"]
    max_size = hyp.get("max_size", DEFAULT_MAX_SIZE)
    shapes = hnp.mutually_broadcastable_shapes(
        signature=hyp["signature"], max_dims=hyp.get("max_dims", 3),
        min_side=hyp.get("min_side", 1), max_side=hyp.get("max_side", 5),
    ).filter(lambda s: all(math.prod(shape) <= max_size for shape in s.input_shapes))

    @st.composite
    def case(draw):
        drawn = draw(shapes)
        magnitude = draw(st.sampled_from(magnitudes(hyp, dtype)))
        return {name: draw(array(dtype, shape, magnitude)) for name, shape in zip(spec.args, drawn.input_shapes)}

    return case()


def fill(inp: dict, dtype: str, rng: np.random.Generator) -> np.ndarray:
    """An explicit example's input: its `values`, or its `shape` filled as `fill` says."""
    dtype = inp.get("dtype", dtype)
    if "values" in inp:
        values = np.asarray(inp["values"], dtype=np.float64 if is_float(dtype) else None)
        return round_to(values, dtype)
    shape, how = tuple(inp["shape"]), inp.get("fill", "normal")
    if how == "arange":
        values = np.arange(math.prod(shape)).reshape(shape)
    elif how in ("ones", "zeros"):
        values = (np.ones if how == "ones" else np.zeros)(shape)
    elif not is_float(dtype):
        values = rng.integers(-5, 6, size=shape)
    else:
        values = rng.standard_normal(shape) if how == "normal" else rng.uniform(-1, 1, shape)
    return round_to(values, dtype)
