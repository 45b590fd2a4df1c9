"""torch's programs exported to ONNX and converted to float16 before ONNX Runtime runs them, as
ONNX Runtime's guide to float16 models shows its users: onnxconverter-common's
float16.convert_float_to_float16(model) with its defaults, which turns every float32 input,
output, initializer and node into float16 but the converter's block list, so float32 inputs are
fed as float16 and the results come back in float16. ONNX Runtime's CPU provider runs a float16
node that has no float16 kernel in float32 between casts (its InsertCastTransformer), so which
ops compute in float16 is the runtime's choice.

A variant of the torch adapter that runs the exported mode alone, on the models: the same
exporter and runtime as torch's exported mode, so torch's documented differences hold; its own
file documents the narrower precision, which the judge bounds layer by layer with the models'
float16 tolerances; the op specs' float16 bounds (attention, norms, softmax in float16 steps, as
the mixed mode has bfloat16's) are not built (docs/exporting.md)."""

from adapters.base import Unsupported, importable
from adapters.torch import TorchAdapter


class OnnxFloat16Adapter(TorchAdapter):
    name = "torch-onnx-float16"
    variant_of = "torch"  # torch's exporter and ONNX Runtime, with the float16 conversion between them
    areas = ("models",)  # a float16 model's accuracy, judged layer by layer

    @classmethod
    def available(cls):
        return all(importable(m) for m in ("torch", "onnxruntime", "onnxconverter_common"))

    @classmethod
    def modes(cls):
        return ("exported",)

    def version(self):  # torch's (its eager side and the exporter), the runtime's and the converter's
        import onnxconverter_common
        import onnxruntime
        return (f"{self.torch.__version__} (ONNX Runtime {onnxruntime.__version__}, "
                f"onnxconverter-common {onnxconverter_common.__version__})")

    def served(self, model):
        """The exported model in float16, as the converter's defaults make it; what the converter
        refuses is Unsupported, in its words."""
        from onnxconverter_common import float16
        try:
            return float16.convert_float_to_float16(model)
        except Exception as exc:  # the converter's refusal, in its own words
            raise Unsupported(f"onnxconverter-common float16: {type(exc).__name__}: {exc}") from None
