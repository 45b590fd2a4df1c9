"""paddle.to_tensor of a Python list inside paddle.jit.to_static: eagerly
paddle.to_tensor([1.7976931348623157e308, 2.2250738585072014e-308, 0.1], dtype="float64") holds
float64's largest and smallest normal numbers and 0.1, and paddle.to_tensor([2 ** 63 - 1, -2 ** 63 + 1],
dtype="int64") holds int64's extremes; in a to_static program the lists pass through 32-bit
floats: inf, 0 and 0.10000000149011612, and -2 ** 63 for both integers (2 ** 63 - 1 rounds to
2.0 ** 63, which int64 does not hold). Exits 1 while the bug is present."""
import sys

import paddle

floats = [1.7976931348623157e308, 2.2250738585072014e-308, 0.1]
ints = [2 ** 63 - 1, -2 ** 63 + 1]


def make():
    return paddle.to_tensor(floats, dtype="float64"), paddle.to_tensor(ints, dtype="int64")


eager = [t.numpy().tolist() for t in make()]
static = [t.numpy().tolist() for t in paddle.jit.to_static(make, full_graph=True)()]
print("eager     ", eager)
print("to_static ", static)
sys.exit(1 if static != [floats, ints] else 0)
