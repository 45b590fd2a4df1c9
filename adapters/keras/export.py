"""Keras' export path: the program as an endpoint of a keras.export.ExportArchive (what
Model.export(format="tf_saved_model") builds), written out as a SavedModel, reloaded by
tf.saved_model.load and called, as a Keras model is served by TensorFlow Serving. On the
tensorflow backend the endpoint is a tf.function of the program; on the jax backend the archive
converts it with jax2tf (native serialization: the program's StableHLO inside the SavedModel, run
by TensorFlow's XlaCallModule op). On the torch backend Keras' SavedModel export needs torch_xla
and a Layer: keras-torch has no exported mode (docs/exporting.md)."""
import shutil
import tempfile

import numpy as np

from adapters.base import Unsupported
from adapters.exporting import per_signature, positional, refusal


class KerasExport:
    """The exported mode: Adapter.export, on the tensorflow and jax backends."""

    @classmethod
    def modes(cls) -> tuple:
        return tuple(m for m in super().modes() if m != "exported" or cls.name != "keras-torch")

    def export(self, fn, weights=()):
        return per_signature(self.export_archive, fn)

    def export_archive(self, fn, env):
        """fn as the "serve" endpoint of an ExportArchive for env's tensors (Python numbers are
        constants of the program), traced now so that the program's own errors raise as under
        the backend's tracing, written out and reloaded: run(env) -> fn's result. What the writer
        or the loader refuses is Unsupported, in its words."""
        try:  # Keras' SavedModel export writes through TensorFlow, on every backend
            import tensorflow as tf
        except ImportError as exc:
            raise Unsupported(f"keras.export.ExportArchive needs TensorFlow: {exc}") from None
        keras = self.keras
        names, call = positional(fn, env, keras.ops.is_tensor)
        signature = [keras.InputSpec(shape=tuple(env[k].shape), dtype=self.dtype_of(env[k]), name=k) for k in names]
        archive = keras.export.ExportArchive()
        # on jax, is_static: the program has no variables of its own to carry (its weights are inputs)
        static = {"is_static": True} if self.backend == "jax" else {}
        endpoint = archive.add_endpoint("serve", call, input_signature=signature, **static)
        endpoint.get_concrete_function()
        folder = tempfile.mkdtemp(prefix="parity-keras-export-")
        try:
            archive.write_out(folder, verbose=False)
            loaded = tf.saved_model.load(folder)
        except Exception as exc:  # the writer's or the loader's refusal, in its own words
            raise Unsupported(f"keras.export.ExportArchive: {type(exc).__name__}: {exc}") from None
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        feed = (lambda x: x) if self.backend == "tensorflow" else (lambda x: tf.constant(np.asarray(x)))

        def run(env):
            try:
                out = loaded.serve(*(feed(env[k]) for k in names))
            except tf.errors.InvalidArgumentError as exc:
                if "Cannot deserialize computation" not in str(exc):  # the program's own error
                    raise
                # TensorFlow's XlaCallModule cannot read the StableHLO jax wrote (a newer version)
                raise Unsupported(f"TensorFlow's XlaCallModule: {refusal(exc)}") from None
            return out if self.backend == "tensorflow" else self.from_tensorflow(out)
        return run

    def from_tensorflow(self, out):
        """The served result (a tensor, or a tuple or list of them) as the backend's tensors."""
        several = isinstance(out, (tuple, list))
        parts = [self.ops.convert_to_tensor(part.numpy()) for part in (out if several else (out,))]
        return tuple(parts) if several else parts[0]
