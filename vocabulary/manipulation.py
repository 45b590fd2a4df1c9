"""The Python Array API standard's manipulation functions beyond reshape, permute_dims, concat and
stack (2024.12): flip, roll, squeeze, expand_dims, moveaxis, broadcast_to, broadcast_arrays, tile, repeat
and unstack. Each op is the standard's function
of the same name, its semantics the standard's text:
https://data-apis.org/array-api/2024.12/API_specification/manipulation_functions.html

Axes follow the standard's rules: an int or a tuple (a YAML list), negative ones counted from the
end; an axis outside the tensor's rank is an error. expand_dims counts its axis in the result (-1
appends, -N-1 prepends).
"""
from vocabulary.records import Op, values

TUPLE_OUT = "The result is a tuple of tensors, compared part by part."

PAGE = "https://data-apis.org/array-api/2024.12/API_specification/generated/array_api."
GROUP = "reductions and shapes"


def _three_d(**kwargs):
    return lambda d: ([values(d, (2, 3, 1))], kwargs)


MANIPULATION_OPS = [
    Op("flip", "x, axis=None", GROUP, f"The elements in reverse order along axis (an int or a tuple; None: every "
       f"axis); the shape is kept. ({PAGE}flip.html)", _three_d(axis=0), bound="structural"),
    Op("roll", "x, shift, axis=None", GROUP, f"The elements shifted along axis by shift, those past the last "
       f"position re-entering at the first (a negative shift moves toward the first); shift and axis ints, or "
       f"tuples of one length (each axis by its shift); axis None rolls the flattened tensor and restores the "
       f"shape. ({PAGE}roll.html)", _three_d(shift=1, axis=1), bound="structural"),
    Op("squeeze", "x, axis", GROUP, f"x without the axes named (an int or a tuple), each of length 1; an axis of "
       f"another length must raise (the standard). ({PAGE}squeeze.html)", _three_d(axis=2), bound="structural"),
    Op("expand_dims", "x, axis=0", GROUP, f"x with an axis of length 1 inserted at axis, counted in the result: "
       f"on the interval [-N-1, N] for x of rank N (-1 appends, -N-1 prepends); outside it must raise. "
       f"({PAGE}expand_dims.html)", _three_d(axis=-1), bound="structural"),
    Op("moveaxis", "x, source, destination", GROUP, f"x with the axes source (an int or a tuple) moved to the "
       f"positions destination (as many), the other axes in their order. ({PAGE}moveaxis.html)",
       _three_d(source=0, destination=-1), bound="structural"),
    Op("broadcast_to", "x, shape", GROUP, f"x broadcast to shape (NumPy's rules: x's axes aligned with shape's "
       f"last ones, each of x's of the same length or 1); a shape x cannot broadcast to must raise. "
       f"({PAGE}broadcast_to.html)", lambda d: ([values(d, (1, 3)), (2, 3)], {}), bound="structural"),
    Op("broadcast_arrays", "xs", GROUP, f"The tensors of xs (a list) broadcast to their common shape. {TUPLE_OUT} "
       f"({PAGE}broadcast_arrays.html)", lambda d: ([[values(d, (1, 3)), values(d, (2, 1))]], {})),
    Op("tile", "x, repetitions", GROUP, f"x repeated repetitions[i] times along each axis i; fewer repetitions "
       f"than x's rank are prepended with 1s, more prepend axes of length 1 to x (the standard, NumPy). "
       f"({PAGE}tile.html)", lambda d: ([values(d), (2, 1)], {}), bound="structural"),
    Op("repeat", "x, repeats, axis=None", GROUP, f"Each element repeated along axis: repeats an int (every "
       f"element as often) or a tuple of one count per element along axis; axis None repeats the flattened "
       f"tensor's elements. ({PAGE}repeat.html)", lambda d: ([values(d), 2], {"axis": 1}), bound="structural"),
    Op("unstack", "x, axis=0", GROUP, f"The tensors x holds along axis, in order, each without that axis. "
       f"{TUPLE_OUT} ({PAGE}unstack.html)", _three_d(axis=1)),
]
