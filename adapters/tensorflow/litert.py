"""LiteRT (TensorFlow Lite): TensorFlow's programs converted by tf.lite.TFLiteConverter and run by
the LiteRT interpreter (package ai-edge-litert, with its default XNNPACK delegate), as a
TensorFlow model is deployed on a phone or at the edge. A variant of the tensorflow adapter that
runs the exported mode alone: the eager result its runtime's is judged beside is TensorFlow's,
with TensorFlow's documented differences; its own mode's are its own (docs/exporting.md)."""
import importlib.metadata

from adapters.base import Unsupported, importable
from adapters.exporting import per_signature, refusal
from adapters.layer_behaviours import LITERT_L2_NORMALIZATION
from adapters.tensorflow import TensorFlowAdapter


class LiteRTAdapter(TensorFlowAdapter):
    name = "tensorflow-litert"
    variant_of = "tensorflow"  # its eager result, judged beside its runtime's, is TensorFlow's
    own_modes = ("exported",)  # LiteRT's kernels: TensorFlow's documented differences do not hold there
    behaviours = (*TensorFlowAdapter.behaviours, LITERT_L2_NORMALIZATION)

    @classmethod
    def available(cls):  # and the LiteRT Quantizer where a recipe needs it
        needed = ("tensorflow", "ai_edge_litert") + (("litert_quantizer",) if cls.recipe is not None else ())
        return all(importable(m) for m in needed)

    @classmethod
    def modes(cls):
        return ("exported",)

    def version(self):  # TensorFlow's (its eager side and the converter), the runtime's and a quantizer's
        import ai_edge_litert
        quantizer = (f", litert-quantizer {importlib.metadata.version('litert-quantizer')}"
                     if self.recipe is not None else "")
        return f"{self.tf.__version__} (LiteRT {ai_edge_litert.__version__}{quantizer})"

    def export(self, fn, weights=()):
        quantises = self.quantised_types is not None or self.recipe is not None
        baked = tuple(weights) if quantises else ()  # what either quantisation quantises: constants
        return per_signature(lambda fn, env: self.litert_interpreter(fn, env, baked), fn, baked)

    # The converter's post-training quantisation: None, none (the converter's defaults); else
    # tf.lite.Optimize.DEFAULT with these target_spec.supported_types (("float16",): float16,
    # adapters/tensorflow/litert_float16.py), of the program's weights, baked in as constants.
    quantised_types: tuple | None = None
    # The LiteRT Quantizer's (litert-quantizer) recipe that quantises the converted model, by its
    # name in litert_quantizer.recipe ("dynamic_wi8_afp32": adapters/tensorflow/litert_int8.py),
    # the program's weights baked in as constants; None, none.
    recipe: str | None = None

    def litert_interpreter(self, fn, env, baked=()):
        """fn as a tf.function for env's tensors (Python numbers are constants of the program, and
        so are the tensors named in `baked`), converted to a LiteRT model with the converter's
        defaults (built-in ops only) and the variant's quantisation, if any, and loaded by the
        LiteRT interpreter: run(env) -> fn's result. An error of the program itself raises as under
        tf.function; an op the converter or the interpreter refuses is Unsupported, in its words."""
        from ai_edge_litert.interpreter import Interpreter
        tf = self.tf
        module, concrete, names = self.serving_module(fn, env, baked)
        try:
            converter = tf.lite.TFLiteConverter.from_concrete_functions([concrete], module)
            if self.quantised_types is not None:
                converter.optimizations = [tf.lite.Optimize.DEFAULT]
                converter.target_spec.supported_types = [getattr(tf, t) for t in self.quantised_types]
            model = converter.convert()
        except Exception as exc:  # the converter's refusal, in its own words
            raise Unsupported(f"tf.lite.TFLiteConverter to LiteRT: {type(exc).__name__}: {refusal(exc)}") from None
        try:
            model = self.quantised(model) if self.recipe is not None else model
            runner = Interpreter(model_content=bytes(model)).get_signature_runner()
        except Exception as exc:  # the quantizer's or the interpreter's refusal, in its own words
            raise Unsupported(f"LiteRT: {type(exc).__name__}: {refusal(exc)}") from None
        several = isinstance(concrete.structured_outputs, (tuple, list))
        count = len(concrete.structured_outputs) if several else 1

        def run(env):
            try:
                out = runner(**{k: env[k].numpy() for k in names})
            except ValueError as exc:
                if "Invalid tensor size" not in str(exc):  # the interpreter's refusal of an empty input
                    raise
                raise Unsupported(f"LiteRT: {exc}") from None
            parts = tuple(tf.constant(out[f"output_{i}"]) for i in range(count))
            return parts if several else parts[0]
        return run

    def quantised(self, model) -> bytearray:
        """The converted model quantised by the LiteRT Quantizer with the variant's recipe, as its
        guide shows (a Quantizer of the model and the recipe; quantize())."""
        from litert_quantizer import quantizer, recipe
        quantize = quantizer.Quantizer(model, getattr(recipe, self.recipe)())
        return quantize.quantize(enable_progress_report=False).quantized_model
