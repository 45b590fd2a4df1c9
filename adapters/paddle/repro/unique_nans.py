"""paddle.unique with NaNs: each NaN is a value of its own (the Array API's rule, and NumPy 2's
unique_all), but Paddle counts each 0 times, gives each the first occurrence 0, and leaves the
inverse at x's NaNs uninitialised (numbers such as 4611686018427387904 that change from one run
to the next). Its CPU kernel (paddle/phi/kernels/funcs/unique_functor.h, UniqueFlattenedTensor)
takes two NaNs as equal only at one address (NaNSafeEqual: &a == &b), and no value of the result
lies at an element of x. x = [2, nan, 1, nan] gives the values [1, 2, nan, nan]; NumPy: first
occurrences [2, 0, 1, 3], inverse [1, 2, 0, 3], counts [1, 1, 1, 1]. Exits 1 while the bug is
present."""
import sys

import numpy as np
import paddle

x = np.array([2.0, np.nan, 1.0, np.nan], dtype=np.float32)
values, index, inverse, counts = (p.numpy() for p in paddle.unique(
    paddle.to_tensor(x), return_index=True, return_inverse=True, return_counts=True))
expected = np.unique_all(x)
print("values", values.tolist(), "NumPy", expected.values.tolist())
print("first occurrences", index.tolist(), "NumPy", expected.indices.tolist())
print("inverse", inverse.tolist(), "NumPy", expected.inverse_indices.tolist())
print("counts", counts.tolist(), "NumPy", expected.counts.tolist())
wrong = counts.tolist() != expected.counts.tolist() or inverse.tolist() != expected.inverse_indices.tolist()
sys.exit(1 if wrong else 0)
