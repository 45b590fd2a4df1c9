"""Failure reproductions (suites/running/repro.py) run without Parity: each snippet runs in a fresh
interpreter outside the repository (-I: no project on sys.path) and prints what the adapter
computes inside the suite."""
import subprocess
import sys

import numpy as np
import pytest

import adapters
from suites.programs import expr
from suites.running import repro

ATTENTION = "matmul(softmax(masked_fill(matmul(q, transpose(k, (0, 2, 1))) / 2, m, -1e999), axis=-1), v)"
RNG = np.random.default_rng(7)
INPUTS = {"q": RNG.normal(size=(2, 3, 4)), "k": RNG.normal(size=(2, 3, 4)), "v": RNG.normal(size=(2, 3, 4)),
          "m": np.triu(np.ones((2, 3, 3), dtype=bool), 1)}
DTYPES = {"q": "float32", "k": "float32", "v": "float32", "m": "bool"}
FRAMEWORKS = ["reference", "torch", "jax", "tensorflow", "keras-tensorflow"]


def run_standalone(code: str, tmp_path) -> dict:
    """Run the snippet as it is, then save what it computed: `out` and, for gradients, `grads`."""
    save = ("\nnp.savez('result.npz', out=ops.to_numpy(out), "
            "**{'grad_' + k: ops.to_numpy(g) for k, g in globals().get('grads', {}).items()})\n")
    done = subprocess.run([sys.executable, "-I", "-c", code + save], capture_output=True, text=True, cwd=tmp_path,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "array(" in done.stdout  # it prints its result for the reader
    return dict(np.load(tmp_path / "result.npz"))


def adapter_or_skip(name):
    try:
        return adapters.get(name)
    except adapters.AdapterError as exc:
        pytest.skip(str(exc))


@pytest.mark.parametrize("name", FRAMEWORKS)
def test_value_snippet_reproduces_the_adapter(name, tmp_path):
    adapter = adapter_or_skip(name)
    tree = expr.parse(ATTENTION, INPUTS)
    code = repro.snippet(type(adapter), tree, INPUTS, DTYPES, "float32", "cpu", "attention")
    printed = run_standalone(code, tmp_path)
    with adapter.device_scope("cpu"):
        env = {k: adapter.asarray(v, DTYPES[k], "cpu") for k, v in INPUTS.items()}
        expected = adapter.to_numpy(adapter.stage(lambda e: expr.evaluate(
            tree, e, lambda op, args, kw: getattr(adapter, op)(*args, **kw),
            lambda c: adapter.asarray(np.asarray(c), "float32", "cpu")))(env))
    np.testing.assert_array_equal(printed["out"], expected)


@pytest.mark.parametrize("name", ["torch", "jax", "tensorflow", "keras-tensorflow"])  # the reference: no autodiff
def test_gradient_snippet_prints_the_gradients(name, tmp_path):
    adapter = adapter_or_skip(name)
    inputs = {"x": np.array([[0.5, -1.0, 2.0]]), "w": np.array([[1.0], [2.0], [-0.5]])}
    tree = expr.parse("sum(square(matmul(x, w)))", inputs)
    code = repro.snippet(type(adapter), tree, inputs, {"x": "float64", "w": "float64"}, "float64", "cpu",
                         "gradient", wrt=["x", "w"])
    printed = run_standalone(code, tmp_path)
    xw = -2.5  # x @ w; d/dx sum((x w)^2) = 2 xw w^T, d/dw = 2 xw x^T (mathematics, not the adapter)
    np.testing.assert_allclose(printed["grad_x"], 2 * xw * inputs["w"].T)
    np.testing.assert_allclose(printed["grad_w"], 2 * xw * inputs["x"].T)


def test_a_snippet_keeps_the_sign_of_a_nan(tmp_path):
    """x86's default NaN (0 / 0, and YAML's .nan) has its sign bit set, and XLA's top_k orders by
    the sign bit: a snippet that wrote it as nan printed [nan, nan, 3] where the suite saw [3, 2, 1]."""
    adapter = adapter_or_skip("jax")
    x = np.array([3.0, 0.0, 1.0, -np.inf, 2.0, 0.0])
    x[[1, 5]] = np.copysign(np.nan, -1.0)
    tree = expr.parse("topk(x, 3)", {"x": x})
    code = repro.snippet(type(adapter), tree, {"x": x}, {"x": "float32"}, "float32", "cpu", "top_k")
    printed = run_standalone(code, tmp_path)
    with adapter.device_scope("cpu"):
        expected = adapter.to_numpy(adapter.topk(adapter.asarray(x, "float32", "cpu"), 3))
    np.testing.assert_array_equal(printed["out"], expected)


def test_a_snippet_writes_complex_numbers_as_python_reads_them():
    """repr writes complex(nan, inf) as (nan+infj), which is no Python, and complex(-0.0, 1) as (-0+1j),
    which Python reads as 1j (the int -0 has no sign): a snippet writes complex(real, imag)."""
    x = np.array([[complex(-0.0, 1.0), complex(np.nan, -np.inf)], [complex(2.5, -0.0), 0j]])
    read = eval(repro._array_text(x), {"complex": complex, "nan": np.nan, "inf": np.inf})  # noqa: S307 - our own text
    np.testing.assert_array_equal(np.array(read), x)
    assert np.array_equal(np.signbit(np.array(read).real), np.signbit(x.real))
    assert np.array_equal(np.signbit(np.array(read).imag), np.signbit(x.imag))


@pytest.mark.parametrize("name", ["torch", "jax"])
def test_a_snippet_writes_a_key_as_python_does(name, tmp_path):
    """x[key] and index_add(x[key], v): the key's slices, ints and index tensors in the snippet."""
    adapter = adapter_or_skip(name)
    inputs = {"x": np.arange(6.0).reshape(3, 2), "i": np.array([1, 1]), "v": np.array([[1.0, 2.0], [3.0, 4.0]])}
    tree = expr.parse("index_add(x[i], v)[-1:, ::2] + index_add(x[i], v)[i, 1]", inputs)
    code = repro.snippet(type(adapter), tree, inputs, {"x": "float32", "i": "int64", "v": "float32"}, "float32",
                         "cpu", "index_add")
    assert "(slice(-1, None, None), slice(None, None, 2), )" in code and "(env['i'], 1, )" in code
    x = inputs["x"].copy()
    x[1] += [4.0, 6.0]  # both repeats of row 1 add (numpy.add.at)
    np.testing.assert_array_equal(run_standalone(code, tmp_path)["out"], x[-1:, ::2] + x[[1, 1], 1])


def test_no_snippet_where_the_code_is_parity_itself():
    tree = expr.parse("relu(x)", {"x": None})
    engine = type(adapter_or_skip("engine"))
    with pytest.raises(repro.NoSnippet, match="imports Parity's engine"):
        repro.snippet(engine, tree, {"x": np.zeros(2)}, {"x": "float32"}, "float32", "cpu", "t")
    with pytest.raises(repro.NoSnippet, match="more than"):
        repro.snippet(adapters.classes()["reference"], tree, {"x": np.zeros(repro.MAX_VALUES + 1)},
                      {"x": "float32"}, "float32", "cpu", "t")


@pytest.mark.parametrize("name", ["torch"])  # jax's flax scan is a cached helper: no standalone form
def test_a_gradient_of_several_parts_has_a_snippet(name, tmp_path):
    """lstm returns (output, h_n, c_n): its snippet differentiates the sum of every part, whose
    gradients are those of a cotangent of ones on each part, and prints what the suite's own
    reverse pass (the parts flattened, a cotangent of ones) computes."""
    import pathlib

    from suites.loading.specs import load_path
    from suites.programs import inputs as spec_inputs
    from suites.programs.context import Context

    adapter = adapter_or_skip(name)
    spec = next(s for s in load_path(pathlib.Path(__file__).parent.parent / "specs" / "lstm.yaml")
                if s.name == "lstm/with-state-num-layers2-bidirectional-batch-first")
    values = spec_inputs.example(spec, spec.examples[0], "float64")
    code = repro.snippet(type(adapter), spec.program.tree, values, dict.fromkeys(values, "float64"), "float64",
                         "cpu", "lstm", wrt=spec.wrt)
    save = "\nnp.savez('result.npz', **{k: ops.to_numpy(g) for k, g in grads.items()})\n"
    done = subprocess.run([sys.executable, "-I", "-c", code + save], capture_output=True, text=True, cwd=tmp_path,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    printed = dict(np.load(tmp_path / "result.npz"))
    ctx = Context(spec, adapter, "cpu", "float64")
    cotangent = np.ones(sum(np.size(p) for p in ctx.run_parts(values)))
    suite = ctx.program.pullback(ctx, ctx.tensors(values), spec.wrt)(cotangent)
    assert sorted(printed) == sorted(spec.wrt)
    for k in spec.wrt:
        np.testing.assert_allclose(printed[k], suite[k], rtol=1e-12, atol=1e-12)
