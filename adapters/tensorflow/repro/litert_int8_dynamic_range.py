"""What LiteRT computes for a model quantised by the LiteRT Quantizer's dynamic_wi8_afp32 recipe
(litert-quantizer 0.11.0, ai-edge-litert 2.3.0): a float32 x @ W, W a constant, converted by
tf.lite.TFLiteConverter and quantised, against NumPy's models of it in float64. W is stored in
int8, symmetric per output channel; the interpreter quantises x to int8 per row as it runs the
op: asymmetric (a zero point) under its default XNNPACK delegate, symmetric under the builtin
kernels. Each model of the kernels matches to float32's rounding; weight-only quantisation
does not (docs/exporting.md, adapters/tensorflow/litert_int8.differences.yaml)."""
import numpy as np
import tensorflow as tf
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from litert_quantizer import quantizer, recipe


def quantised(x, axis, symmetric):
    """x to int8 and back per slice along `axis`: symmetric to -127..127 with a scale of
    max|x| / 127; asymmetric to -128..127 with a scale of (max - min) / 255 over a range that
    holds 0, and a rounded zero point."""
    keep = 1 - axis
    if symmetric:
        scale = np.max(np.abs(x), axis=keep, keepdims=True) / 127
        return np.clip(np.round(x / scale), -127, 127) * scale
    high, low = np.maximum(x.max(axis=keep, keepdims=True), 0), np.minimum(x.min(axis=keep, keepdims=True), 0)
    scale = (high - low) / 255
    zero = np.round(-128 - low / scale)
    return (np.clip(np.round(x / scale) + zero, -128, 127) - zero) * scale


rng = np.random.default_rng(0)
x = rng.uniform(-1, 1, (4, 256)).astype(np.float32)
w = rng.uniform(-0.3, 0.3, (256, 3)).astype(np.float32)
module = tf.Module()
module.serve = tf.function(lambda x: tf.matmul(x, tf.constant(w)), input_signature=[tf.TensorSpec(x.shape, tf.float32)])
model = tf.lite.TFLiteConverter.from_concrete_functions([module.serve.get_concrete_function()], module).convert()
model = quantizer.Quantizer(model, recipe.dynamic_wi8_afp32()).quantize(enable_progress_report=False).quantized_model

x64, w8 = x.astype(np.float64), quantised(w.astype(np.float64), axis=1, symmetric=True)  # per output column
models = {"float64 x @ W": x64 @ w, "weight-only int8": x64 @ w8,
          "int8 W, x per row symmetric": quantised(x64, 0, True) @ w8,
          "int8 W, x per row asymmetric": quantised(x64, 0, False) @ w8}
for kernels, resolver in (("XNNPACK (default)", OpResolverType.AUTO),
                          ("builtin kernels", OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)):
    runner = Interpreter(model_content=bytes(model), experimental_op_resolver_type=resolver).get_signature_runner()
    out = next(iter(runner(x=x).values())).astype(np.float64)
    print(kernels + ":")
    for name, expected in models.items():
        print(f"  max |LiteRT - {name}| = {np.abs(out - expected).max():.2e}")
