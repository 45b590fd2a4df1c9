"""Dtype declarations are held honest (as PyTorch's OpInfo test_dtypes does): every installed
adapter's declaration matches what its sample calls do, and a wrong declaration is caught."""
import pathlib
import subprocess
import sys

import pytest

import adapters
from adapters.reference import ReferenceAdapter
from suites.running import coverage

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.apart) if name == "jax" else name
                                  for name in adapters.installed()])  # jax's: 144 s, in test-apart
def test_declarations_match_behaviour(name):
    assert coverage.check(adapters.get(name)) == []


class OverClaiming(ReferenceAdapter):
    name = "over-claiming"
    dtypes = {**ReferenceAdapter.dtypes, "matmul": ("bfloat16", "float32")}


class UnderClaiming(ReferenceAdapter):
    name = "under-claiming"
    dtypes = {**ReferenceAdapter.dtypes, "exp": ("float32",)}


def test_a_wrong_declaration_is_caught():
    over = coverage.check(OverClaiming())
    # the reason behind a declared dtype that fails: the reference's own Unsupported
    assert "over-claiming.matmul: bfloat16 is declared but fails: Unsupported: NumPy has no bfloat16 dtype" in over
    assert "over-claiming.matmul: float64 works but is not declared" in over
    under = coverage.check(UnderClaiming())
    assert "under-claiming.exp: float64 works but is not declared" in under
    assert all(line.startswith("under-claiming.exp: ") for line in under)


def test_only_implemented_ops_are_declared():
    class Tiny(adapters.Adapter):
        name = "tiny"
        dtypes = {"*": ("float32",)}

        def add(self, a, b):
            return a + b

    assert coverage.declared(Tiny) == {"add": ("float32",)}
    table = coverage.table({"tiny": Tiny})
    assert ["add", "f32"] in table and ["matmul", "-"] in table


def test_command_line_prints_the_table():
    run = subprocess.run([sys.executable, "-m", "suites", "coverage", "--adapter", "reference"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split() == ["op", "reference"]
    assert ["matmul", "f16", "f32", "f64", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "b"] in [
        line.split() for line in lines]
    bad = subprocess.run([sys.executable, "-m", "suites", "coverage", "--adapter", "nope"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "unknown adapter 'nope'" in bad.stderr


def test_the_printed_declaration_holds_once_pasted():
    """`coverage --check` prints, for an adapter whose declaration is wrong, the `dtypes` that
    matches what it does: pasted into the class, the check passes."""
    seen = coverage.observed(UnderClaiming())
    text = coverage.declaration(seen)
    assert text.startswith('dtypes = {"*": (') and "'exp'" not in text  # exp works as the rest do
    namespace = {}
    exec(text, namespace)  # noqa: S102 - the printed text is Python to paste; this is that paste

    class Pasted(ReferenceAdapter):
        name = "pasted"
        dtypes = namespace["dtypes"]

    assert coverage.check(Pasted(), seen=seen) == []


def test_an_op_of_no_tensor_is_declared_in_the_dtype_it_is_asked_for():
    """arange takes no tensor: the dtype its result is asked in is the one its declaration speaks
    of, so a framework's error in an undeclared one (tf.range has no int8 kernel on CPU) is
    unsupported in the framework's words, and in a declared one an error."""
    reference, exc = adapters.get("reference"), RuntimeError("no kernel")
    note = coverage.undeclared(reference, "arange", [0, 5, 1], exc, {"dtype": "bfloat16"})
    assert note.startswith("reference does not declare arange in bfloat16 (its `dtypes`)")
    assert coverage.undeclared(reference, "arange", [0, 5, 1], exc, {"dtype": "float32"}) is None
