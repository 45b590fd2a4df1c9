"""Keras 3 on the torch backend: keras.ops.unique(x, return_index=True) raises for every x that is
not 1-D. With axis=None it calls torch.unique(x, return_inverse=True), whose inverse has x's shape,
then scatters torch.arange(inverse.size(0)) along dim 0 of it as if it were flat: a 2-D x raises
"Index tensor must have the same number of dimensions as self tensor", a 0-d x IndexError. NumPy's
and Keras' other backends give the flat first occurrences (unique_all's indices). Exits 1 while the
bug is present.
Run: KERAS_BACKEND=torch python adapters/torch/repro/keras_unique_return_index.py"""
import sys

import keras
import numpy as np

wrong = False
for x in (np.array([[3.0, 1.0], [2.0, 1.0]]), np.array(-3.0), np.array([3.0, 1.0, 2.0, 1.0])):
    expected = np.unique_all(x).indices.tolist()
    try:
        got = np.asarray(keras.ops.unique(x, return_index=True)[1]).tolist()
    except Exception as exc:  # noqa: BLE001 - the bug's error is the finding
        got = f"{type(exc).__name__}: {exc}"
    print(f"x of shape {x.shape}: first occurrences {got}, NumPy's {expected}")
    wrong |= got != expected
sys.exit(1 if wrong else 0)
