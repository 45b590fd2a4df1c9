"""The expression interpreter: what it accepts, what it refuses, how it evaluates."""
import numpy as np
import pytest

from adapters.reference import ReferenceAdapter
from suites.programs import expr

REF = ReferenceAdapter()


def evaluate(text, **env):
    tree = expr.parse(text, env)
    return expr.evaluate(tree, env, lambda op, a, k: getattr(REF, op)(*a, **k), np.float64)


def test_arithmetic_maps_to_vocabulary_calls():
    tree = expr.parse("-a + 2 * b ** 2 / a - b", {"a", "b"})
    assert expr.ops_in(tree) == {"neg", "add", "mul", "pow", "div", "sub"}


def test_evaluates_calls_keywords_and_tuples():
    a = np.arange(6.0).reshape(2, 3)
    assert evaluate("sum(a, axis=1)", a=a).tolist() == [3.0, 12.0]
    assert evaluate("reshape(a, (3, 2))", a=a).shape == (3, 2)
    assert evaluate("concat([a, a], 0)", a=a).shape == (4, 3)
    assert evaluate("sum(square(matmul(a, transpose(a, (1, 0)))))", a=a) == np.sum((a @ a.T) ** 2)
    assert evaluate("2 * a - a", a=a).tolist() == a.tolist()


def test_a_keyword_may_take_a_tuple_of_options():
    x = np.zeros(2, np.int8)
    tree = expr.parse("isdtype(x, kind=('integral', 'bool'))", {"x"})
    assert tree.kwargs == (("kind", expr.Const(("integral", "bool"))),)
    with pytest.raises(expr.ExprError, match="not a number"):
        expr.parse("isdtype(x, kind=('integral', x))", {"x"})
    assert evaluate("isdtype(x, kind=('real floating', 'bool'))", x=x) == np.False_


def test_a_keyword_may_take_a_tensor():
    a, m = np.array([[1.0, 2.0, 3.0]]), np.array([[True, False, True]])
    tree = expr.parse("masked_softmax(a, mask=m)", {"a", "m"})
    assert tree.kwargs == (("mask", expr.Name("m")),)
    assert expr.ops_in(expr.parse("sum(a, axis=0) + masked_fill(a, mask=a > 1.5, value=0)", {"a"})) == \
        {"add", "sum", "masked_fill", "greater"}
    assert evaluate("masked_softmax(a, mask=m)", a=a, m=m)[0, 1] == 0.0


def test_the_op_form_names_its_args_where_a_param_comes_before_them():
    """A grid over scatter_reduce's axis (a param before index and src in its signature) calls
    it with every arg by name; args in order otherwise; an arg that names no parameter is refused."""
    x, index, src = np.zeros((2, 2)), np.array([[1, 0], [1, 1]]), np.array([[1.0, 2.0], [3.0, 4.0]])
    tree = expr.call("scatter_reduce", ["x", "index", "src"], {"axis": -2, "reduce": "sum"})
    assert tree.args == () and [k for k, _ in tree.kwargs][:3] == ["x", "index", "src"]
    value = expr.evaluate(tree, {"x": x, "index": index, "src": src},
                          lambda op, a, k: getattr(REF, op)(*a, **k), np.float64)
    assert value.tolist() == [[0.0, 2.0], [4.0, 4.0]]
    assert expr.call("sum", ["x"], {"axis": 0}).args == (expr.Name("x"),)
    with pytest.raises(expr.ExprError, match="which i is not"):
        expr.call("scatter_reduce", ["x", "i", "src"], {"axis": 0, "reduce": "sum"})


def test_one_comparison_is_a_mask_made_from_values():
    a = np.array([-1.0, 0.0, 2.0])
    assert expr.parse("a > 0", {"a"}) == expr.Call("greater", (expr.Name("a"), expr.Const(0)), ())
    assert expr.parse("0 < a", {"a"}) == expr.Call("less", (expr.Const(0), expr.Name("a")), ())
    assert evaluate("where(a > 0.5, a, 0.0)", a=a).tolist() == [0.0, 0.0, 2.0]


@pytest.mark.parametrize("text, op", [("a == b", "equal"), ("a != b", "not_equal"), ("a < b", "less"),
                                      ("a <= b", "less_equal"), ("a >= b", "greater_equal"),
                                      ("a & b", "bitwise_and"), ("a | b", "bitwise_or"), ("a ^ b", "bitwise_xor"),
                                      ("a << b", "bitwise_left_shift"), ("a >> b", "bitwise_right_shift")])
def test_python_operators_are_the_standards_functions(text, op):
    assert expr.parse(text, {"a", "b"}) == expr.Call(op, (expr.Name("a"), expr.Name("b")), ())


def test_unary_operators_on_a_tensor_are_ops_and_on_a_number_fold():
    assert expr.parse("~a", {"a"}) == expr.Call("bitwise_invert", (expr.Name("a"),), ())
    assert expr.parse("+a", {"a"}) == expr.Call("positive", (expr.Name("a"),), ())
    assert expr.parse("~3", {"a"}) == expr.Const(-4)
    a = np.array([1, -3], np.int8)  # Python's int operators as the expected values
    out = expr.evaluate(expr.parse("(a << 2) ^ ~a", {"a"}), {"a": a}, lambda op, x, k: getattr(REF, op)(*x, **k),
                        lambda c: c)
    assert out.dtype == np.int8 and out.tolist() == [(1 << 2) ^ ~1, (-3 << 2) ^ ~-3]


def test_strings_only_as_keyword_options():
    tree = expr.parse("pad(a, ((1, 1),), mode='reflect')", {"a"})
    assert tree.kwargs == (("mode", expr.Const("reflect")),)


def test_indexing_is_written_as_python_writes_it():
    a, i = np.arange(12.0).reshape(3, 4), np.array([2, 0, 2])
    assert evaluate("a[1:, ::-1]", a=a).tolist() == a[1:, ::-1].tolist()
    assert evaluate("a[..., -1, None]", a=a).tolist() == a[..., -1, None].tolist()
    assert evaluate("a[i, 1] * 2", a=a, i=i).tolist() == (a[i, 1] * 2).tolist()
    assert expr.ops_in(expr.parse("index_add(a[i], sum(a[i], axis=0))", {"a", "i"})) == {"index_add", "index", "sum"}
    added = np.array(a)
    np.add.at(added, i, 1.0)
    assert evaluate("index_add(a[i], 1.0)", a=a, i=i).tolist() == added.tolist()  # a repeated row adds twice
    assert evaluate("index_set(a[i], 1.0)", a=a, i=i)[2].tolist() == [1.0] * 4


def test_negative_constants_fold():
    assert expr.parse("-2", {"a"}) == expr.Const(-2)


@pytest.mark.parametrize("text, message", [
    ("a.T", "attribute access"),
    ("a.b[0]", "attribute access"),
    ("a[[0, 1]]", "a list in a key"),
    ("a[0.5]", "a key takes ints"),
    ("a[1:0.5]", "a slice's bounds are ints"),
    ("index_set(a, a)", "write its first argument as x[key]"),
    ("(lambda: a)()", "only vocabulary ops can be called"),
    ("lambda: a", "lambda"),
    ("__import__('os')", "unknown op '__import__'"),
    ("__class__", "names may not start with '_'"),
    ("open('x')", "unknown op 'open'"),
    ("a if a else a", "conditional"),
    ("a < a < a", "comparison"),
    ("~1.5", "bitwise_invert takes integers"),
    ("[x for x in a]", "ListComp"),
    ("matmul(*a)", "'*' unpacking"),
    ("sum(a, **a)", "'**' arguments"),
    ("pad(a, 'reflect')", "is not a number"),
    ("'text'", "is not a number"),
    ("c", "unknown name 'c'"),
    ("(a := 1)", "assignment"),
    ("import os", "not a valid expression"),
    ("matmul(a,", "not a valid expression"),
])
def test_refuses_everything_outside_the_language(text, message):
    with pytest.raises(expr.ExprError, match=None) as info:
        expr.parse(text, {"a"})
    assert message in str(info.value)


def test_unknown_op_lists_the_valid_ones():
    with pytest.raises(expr.ExprError) as info:
        expr.parse("matmull(a, a)", {"a"})
    assert "valid ops:" in str(info.value) and "matmul" in str(info.value)


def test_deep_nesting_is_refused_not_a_recursion_error():
    with pytest.raises(expr.ExprError, match="nested deeper"):
        expr.parse("neg(" * 40 + "a" + ")" * 40, {"a"})
