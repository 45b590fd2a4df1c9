"""Integers in the dtype under test: the oracle computes uint64 as uint64, and a generated integer
input reaches the adapter as an array of the dtype under test, as an explicit example's does."""
import numpy as np

from adapters.engine import EngineAdapter
from suites.programs import expr
from suites.programs.context import Context
from suites.programs.program import Expression
from tests.spec_text import first_spec


def test_the_oracle_computes_uint64_as_uint64():
    """uint64's upper half as int64 is negative: widened so, 2 ** 64 - 1 >> 1 filled with ones and a
    sort put 2 ** 63 before 0. The oracle keeps uint64 (mathematics: (2 ** 64 - 1) // 2 = 2 ** 63 - 1)."""
    x1 = np.array([2 ** 64 - 1, 2 ** 63, 0], np.uint64)
    x2 = np.array([1, 63, 5], np.uint64)
    program = Expression(expr.parse("stack([x1 >> x2, sort(x1, axis=-1)], axis=0)", ["x1", "x2"]))
    out = program.oracle_parts({"x1": x1, "x2": x2}, "uint64")
    assert out.dtype == np.uint64
    assert out.tolist() == [[2 ** 63 - 1, 1, 0], [0, 2 ** 63, 2 ** 64 - 1]]


def test_a_generated_integer_input_reaches_the_adapter_in_the_dtype_under_test(tmp_path):
    """A `min`/`max` rule draws int64 values; the adapter gets them as a uint16 array, as a user's
    uint16 image is one: paddle.to_tensor reads a uint16 array's bits as bfloat16 but casts int64
    values, so a generated case and an example saw different numbers."""
    seen = []

    class Recording(EngineAdapter):
        name = "recording"

        def asarray(self, x, dtype, device):
            seen.append(x.dtype)
            return super().asarray(x, dtype, device)

    spec = first_spec(tmp_path, """\
        - id: add
          expr: "x + y"
          args: [x, y]
          dtypes: [uint16]
          hypothesis: {signature: "(),()->()", inputs: {x: {min: 0, max: 4}, y: {min: 0, max: 4}}}
        """)
    ctx = Context(spec, Recording(), "cpu", "uint16")
    ctx.program.tensors(ctx, {"x": np.array([3, 1]), "y": np.array(2)})
    assert seen == [np.uint16, np.uint16]
