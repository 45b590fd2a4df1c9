"""tf.constant of a list of Python ints in uint64 inside tf.function: eagerly
tf.constant([64, 2 ** 64 - 1, 0], dtype=tf.uint64) holds its values, but in a traced function
the list goes through tensorflow/python/util/numpy_compat.np_array, which makes np.array(values)
first and casts it to uint64 after: NumPy makes a list of ints that mixes int64's range with
values past it float64, so 2 ** 64 - 1 becomes 2.0 ** 64, whose cast to uint64 is 0 (NumPy's
"invalid value encountered in cast"), and 2 ** 63 + 5 becomes 2 ** 63. The same values as one
Python int each, or as a NumPy uint64 array, are right. Open upstream since TensorFlow 1.13:
https://github.com/tensorflow/tensorflow/issues/30691. Exits 1 while the bug is present."""
import sys

import tensorflow as tf

values = [64, 2 ** 64 - 1, 2 ** 63 + 5, 0]
eager = tf.constant(values, dtype=tf.uint64).numpy().tolist()
traced = tf.function(lambda: tf.constant(values, dtype=tf.uint64))().numpy().tolist()
print("values              ", values)
print("eager tf.constant   ", eager)
print("traced tf.constant  ", traced)
sys.exit(1 if traced != values else 0)
