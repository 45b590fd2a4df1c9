"""The record of an op (vocabulary/__init__.py explains the vocabulary) and what its coverage
samples are made of: small exact values, and index and mask arguments that keep their own dtype."""
import ast
import inspect
from dataclasses import dataclass

import numpy as np

from vocabulary.params import attention_param_shapes, rnn_param_shapes


class Index(np.ndarray):
    """A sample's index argument: int64, whatever the dtype under test."""


class Mask(np.ndarray):
    """A sample's mask / condition argument: bool, whatever the dtype under test."""


INDEX = np.array([[0, 2, 1], [1, 0, 0]]).view(Index)
MASK = np.array([[True, False, True], [False, False, True]]).view(Mask)


def values(dtype, shape=(2, 3)):
    """Small positive values (log and sqrt accept them), exact in every dtype; bools for bool."""
    values = np.arange(1, int(np.prod(shape)) + 1).reshape(shape) % 5 + 1
    return values.astype(bool) if dtype == "bool" else values


def rnn_sample(op):
    def sample(dtype):
        params = {k: np.full(s, 0.25) for k, s in rnn_param_shapes(3, 2, op=op).items()}
        return [values(dtype, (2, 4, 3)), *(None,) * (2 if op == "lstm" else 1), params], {}

    return sample


def mha_sample(dtype):
    params = {k: np.full(s, 0.25) for k, s in attention_param_shapes(4).items()}
    return [values(dtype, (2, 2, 4))] * 3 + [params], {"num_heads": 2}  # a valid call in either layout


def binary(d):
    return [values(d), values(d)], {}


def unary(d):
    return [values(d)], {}


def vector(d):
    """A 1-D x: a sample asks which dtypes an op takes, and Keras' unique on torch raises for every x
    of more than one axis with return_index (a shape's failure: specs/sets.yaml documents it)."""
    return [values(d, (6,))], {}


def along_axis(d):
    return [values(d)], {"axis": 1}


@dataclass(frozen=True)
class Op:
    name: str
    signature: str  # the adapter method's parameters after self, as Python writes them
    group: str  # the section of docs/vocabulary.md
    semantics: str  # the contract: what the result must be, argument formats, conventions
    # dtype -> (args, kwargs) of a small call (NumPy values; Index / Mask keep their own dtype)
    sample: object = None
    no_dtype: bool = False  # no tensor input: its dtype is not a question (coverage skips it)
    number_operands: bool = False  # a number in an expression is a tensor operand here (2 * x)
    # the result dtype is a parameter: the runner passes the dtype under test, unless the expression writes one
    dtype_param: bool = False
    # its result describes the dtype under test (finfo, can_cast): the reference, which computes in a wide
    # dtype, is given it as `described`
    describes_dtype: bool = False
    index_dtyped: bool = False  # the dtype under test is that of its integer input (lengths, ids)
    zero_derivative: bool = False  # derivative zero by definition or almost everywhere (held fixed)
    place: bool = False  # its first two arguments are a place, x[key], written as a subscript (suites/programs/expr.py)
    parts: tuple = ()  # the names of the tensors it returns, for an op that returns several
    # each part's dtype, for parts of several: None is the dtype under test, "int64" the standard's index dtype
    part_dtypes: tuple = ()
    bound: str | None = None  # the sum-product error rule it follows (suites/judging/bound_rules.py), if any
    random: bool = False  # its result is a sample: the reference gives its law (suites/judging/sampling.py)
    # its complex dtypes are judged (complex64, complex128): the coverage asks them of it too (adapters.base.COMPLEX)
    complex_dtypes: bool = False

    @property
    def parameters(self) -> inspect.Signature:
        """The signature as inspect sees it (parsed with ast, never executed)."""
        fn = ast.parse(f"def f(self, {self.signature}): pass").body[0].args
        names = [a.arg for a in fn.args]
        defaults = [ast.literal_eval(d) for d in fn.defaults]
        first_default = len(names) - len(defaults)
        return inspect.Signature([
            inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                              default=defaults[i - first_default] if i >= first_default else inspect.Parameter.empty)
            for i, n in enumerate(names)])


REDUCTION = ("axis: None (every axis), an int or a tuple of ints; keepdims keeps the reduced axes with "
             "size 1.")
