"""LiteRT's dynamic-range int8 quantisation: TensorFlow's models converted to LiteRT, then
quantised by the LiteRT Quantizer (package litert-quantizer, formerly ai-edge-quantizer) with its
`dynamic_wi8_afp32` recipe, the path LiteRT now shows in place of the converter's post-training
quantisation, and run by the LiteRT interpreter. The recipe stores every weight of the ops it
supports (fully connected, convolution, batch matmul, ...) as int8, symmetric per output channel,
whatever its size (the converter's own dynamic-range quantisation skips weights under 1,024
elements: every weight of the spec CNN); at inference the interpreter quantises those ops'
float32 activations to int8 on the fly, multiplies in integers and returns float32.

As tensorflow-litert-float16, it bakes the program's weights into the model as constants (the
quantisation quantises constants only) and runs the models alone (`areas`), each layer judged at
int8's bound where it reads a weight (litert_int8.differences.yaml)."""
from adapters.tensorflow.litert import LiteRTAdapter


class LiteRTInt8Adapter(LiteRTAdapter):
    name = "tensorflow-litert-int8"
    areas = ("models",)  # a quantised model's accuracy, judged layer by layer
    recipe = "dynamic_wi8_afp32"  # available and version count the quantizer (LiteRTAdapter)
