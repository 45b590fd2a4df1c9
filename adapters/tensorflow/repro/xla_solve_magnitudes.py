"""tf.linalg.solve under XLA (tf.function(jit_compile=True)) is wrong for matrices whose entries
are tiny or huge, where eager TensorFlow (LAPACK's LU) is right: the matrix with 1 on its diagonal
and 1/12 elsewhere, scaled by s, with b ones, solves to 1 / (s (1 + 4/12)) in each element. XLA's
result is a third off for s = 1e-160 (every entry below the square root of float64's smallest
normal number, 1.5e-154) and NaN for s = 1e160 (above the square root of its largest), right for
1e-150 and 1e150; float32 goes wrong past its own square roots (1e-18, 1e25), and float16 at 256
(NaN). XLA's triangular solves of eager TensorFlow's LU factors agree with eager ones: the
difference is XLA's LU. Found by Parity's specs/solve.yaml (solve-matrices, CI's seed 340).
Exits 1 while the bug is present."""
import sys

import numpy as np
import tensorflow as tf

base = np.full((5, 5), 1 / 12)
np.fill_diagonal(base, 1.0)
rhs = np.ones((5, 1))
xla_solve = tf.function(tf.linalg.solve, jit_compile=True)


def relative_error(x, exact):
    return float(np.max(np.abs(x - exact) / np.abs(exact)))


wrong = False
for dtype, scales in (("float64", (1e-160, 1e-150, 1e150, 1e160)), ("float32", (1e-18, 1e-10, 1e10, 1e25))):
    for scale in scales:
        a, b = (base * scale).astype(dtype), rhs.astype(dtype)
        exact = np.linalg.solve(a.astype(np.float64), b.astype(np.float64))
        eager = relative_error(tf.linalg.solve(a, b).numpy(), exact)
        xla = relative_error(xla_solve(a, b).numpy(), exact)
        print(f"{dtype} scale {scale:g}: relative error eagerly {eager:.2g}, under XLA {xla:.2g}")
        wrong |= not xla < 1e-3
sys.exit(1 if wrong else 0)
