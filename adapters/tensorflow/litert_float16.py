"""LiteRT's float16 quantisation: TensorFlow's models converted by tf.lite.TFLiteConverter with
post-training float16 quantisation, as LiteRT's guide shows its users
(converter.optimizations = [tf.lite.Optimize.DEFAULT], target_spec.supported_types =
[tf.float16]), and run by the LiteRT interpreter. The converter quantises a model's constant
weights to float16; the interpreter dequantizes them to float32 and computes in float32 (on a CPU
without float16 arithmetic), so the inputs and results stay float32.

A quantised model's weights are constants: a user converts a trained model, whose weights are
baked in. So this variant bakes the program's weights (a model's parameters) into the converted
model, once per input signature and weight values, where tensorflow-litert takes them as inputs,
which the converter would leave in float32. It runs the models alone (`areas`), each layer
judged at float16's bound (litert_float16.differences.yaml), as torch-onnx-float16 is."""
from adapters.tensorflow.litert import LiteRTAdapter


class LiteRTFloat16Adapter(LiteRTAdapter):
    name = "tensorflow-litert-float16"
    areas = ("models",)  # a quantised model's accuracy, judged layer by layer
    quantised_types = ("float16",)
