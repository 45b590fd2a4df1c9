"""JAX functions converted by jax2tf (as keras.export.ExportArchive converts one on the jax
backend), saved as a SavedModel, reloaded and run by TensorFlow's XlaCallModule op, against JAX's
own result on the same inputs. TensorFlow's XLA compiles with xla_cpu_enable_fast_min_max on
("copy TF's Eigen style min_max behavior with nans"), JAX's with it off: maximum and minimum drop
a NaN in their second operand and return their first operand where both are zeros, and a max
pool and a scatter-max drop NaN. With XLA_FLAGS=--xla_cpu_enable_fast_min_max=false the exported
results are JAX's. And jax 0.10.2 serializes lax.top_k as a composite that TensorFlow 2.21's
StableHLO (1.13.7) cannot read: the reloaded program refuses to run."""
import tempfile

import jax
import jax.numpy as jnp
import numpy as np
import tensorflow as tf
from jax.experimental import jax2tf


def served(function, *inputs):
    module = tf.Module()
    module.serve = tf.function(jax2tf.convert(function), autograph=False,
                               input_signature=[tf.TensorSpec(x.shape, tf.float32) for x in inputs])
    folder = tempfile.mkdtemp()
    tf.saved_model.save(module, folder)
    return tf.saved_model.load(folder).serve(*inputs)


def max_pool(x):
    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (2, 2), (2, 2), "VALID")


nan_first, nan_second = np.array([np.nan, 0.0], np.float32), np.array([0.0, np.nan], np.float32)
zeros_a, zeros_b = np.array([-0.0, 0.0], np.float32), np.array([0.0, -0.0], np.float32)
window = np.array([[np.nan, 1.0], [2.0, 3.0]], np.float32)
cases = {
    "maximum(a, b), NaN": (jnp.maximum, [nan_first, nan_second]),
    "minimum(a, b), NaN": (jnp.minimum, [nan_first, nan_second]),
    "1 / maximum(a, b), zeros": (lambda a, b: 1 / jnp.maximum(a, b), [zeros_a, zeros_b]),
    "1 / minimum(a, b), zeros": (lambda a, b: 1 / jnp.minimum(a, b), [zeros_a, zeros_b]),
    "max pool of [[nan, 1], [2, 3]]": (max_pool, [window]),
    "x.at[0].max(nan)": (lambda x, s: jnp.asarray(x).at[jnp.array([0, 0])].max(s), [np.array([1.0], np.float32),
                                                                        np.array([np.nan, 0.5], np.float32)]),
}
for name, (function, inputs) in cases.items():
    print(f"{name:32} jax      {np.asarray(function(*inputs)).tolist()}")
    print(f"{'':32} exported {served(function, *inputs).numpy().tolist()}")
try:
    served(lambda x: jax.lax.top_k(x, 2)[0], np.array([1.0, 3.0, 2.0], np.float32))
except tf.errors.InvalidArgumentError as exc:
    reasons = [line.split("error: ", 1)[1] for line in str(exc).splitlines() if "error: " in line]
    print("lax.top_k exported:", reasons[:2])
