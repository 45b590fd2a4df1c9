"""TensorFlow programs converted by tf.lite.TFLiteConverter (defaults) and run by the LiteRT
interpreter (ai-edge-litert, its default XNNPACK delegate), against TensorFlow's eager result on
the same float32 inputs: exp near the top of float32's range and of NaN, log of +inf and of NaN,
the maximum and minimum of a and b where a or b is NaN (of one shape, and broadcast), the
reciprocal square root of -0 and +0, a -inf filled in by tf.where, a cast to int32 of floats it
cannot hold, a max pool over a window holding NaN, tf.math.l2_normalize with its default
axis=None (the whole tensor's norm), a scatter-add into an infinity (the converter's SCATTER_ND,
GATHER_ND, MUL, SUB and ADD give NaN there), and a convolution of an infinity (LiteRT gives
float32's largest finite value)."""
import numpy as np
import tensorflow as tf
from ai_edge_litert.interpreter import Interpreter


def litert(function, *inputs):
    module = tf.Module()
    module.serve = tf.function(function, input_signature=[tf.TensorSpec(x.shape, x.dtype, name=f"x{i}")
                                                          for i, x in enumerate(inputs)])
    model = tf.lite.TFLiteConverter.from_concrete_functions([module.serve.get_concrete_function()], module).convert()
    runner = Interpreter(model_content=model).get_signature_runner()
    return runner(**{f"x{i}": x for i, x in enumerate(inputs)})["output_0"]


nan_first, nan_second = np.array([np.nan, 0.0], np.float32), np.array([0.0, np.nan], np.float32)
cases = {
    "exp": (tf.exp, [np.array([88.0, 80.0, np.nan, -np.inf], np.float32)]),
    "log": (tf.math.log, [np.array([np.inf, np.nan, -np.nan, 0.0, 1.0], np.float32)]),
    "maximum(a, b)": (tf.maximum, [nan_first, nan_second]),
    "minimum(a, b)": (tf.minimum, [nan_first, nan_second]),
    "max + min, broadcast": (lambda a, b: tf.maximum(a, b) + tf.minimum(b, a),
                             [np.zeros((1, 1), np.float32), np.full((1, 2), np.nan, np.float32)]),
    "rsqrt(x)": (tf.math.rsqrt, [np.array([-0.0, 0.0, 4.0], np.float32)]),
    "where(m, -inf, x)": (lambda m, x: tf.where(m > 0, -np.inf, x), [np.array([1.0, 0.0], np.float32),
                                                                     np.array([1.0, 2.0], np.float32)]),
    "cast to int32": (lambda x: tf.cast(x, tf.int32), [np.array([3e9, -3e9, np.nan, np.inf], np.float32)]),
    "max_pool2d": (lambda x: tf.nn.max_pool2d(x, 2, 2, "VALID"),
                   [np.array([np.nan, 1.0, 2.0, 3.0], np.float32).reshape(1, 2, 2, 1)]),
    "l2_normalize": (lambda x: tf.math.l2_normalize(x), [np.array([[3.0, 4.0], [0.0, 5.0]], np.float32)]),
    "tensor_scatter_nd_add": (tf.tensor_scatter_nd_add, [np.array([[np.inf], [1.0], [-np.inf]], np.float32),
                                                         np.array([[0], [1]], np.int64),
                                                         np.array([[0.0], [2.0]], np.float32)]),
    "conv1d": (lambda x, w: tf.nn.conv1d(x, w, 1, "VALID"), [np.array([np.inf, 3e38], np.float32).reshape(1, 2, 1),
                                                            np.ones((1, 1, 2), np.float32)]),
}
for name, (function, inputs) in cases.items():
    print(f"{name:18} eager  {function(*inputs).numpy().tolist()}")
    print(f"{'':18} LiteRT {litert(function, *inputs).tolist()}")
