"""TensorFlow's export path: the program as a tf.function of a tf.Module with an input signature,
saved by tf.saved_model.save and reloaded by tf.saved_model.load, then called: the SavedModel
that TensorFlow Serving loads, run by the same graph runtime (Grappler's graph optimisations,
TensorFlow's kernels, no XLA), as a TensorFlow model is served (docs/exporting.md)."""
import shutil
import tempfile

from adapters.base import Unsupported
from adapters.exporting import per_signature, positional


class TensorFlowExport:
    """The exported mode: Adapter.export."""

    def export(self, fn, weights=()):
        return per_signature(self.saved_model, fn)

    def saved_model(self, fn, env):
        """fn saved as a SavedModel's serving function for env's tensors (Python numbers are
        constants of the program) and reloaded: run(env) -> fn's result. An error of the program
        itself raises as it does under tf.function; an op the saver or the loader refuses is
        Unsupported, in its words."""
        tf = self.tf
        module, _, names = self.serving_module(fn, env)
        folder = tempfile.mkdtemp(prefix="parity-savedmodel-")
        try:
            tf.saved_model.save(module, folder)
            loaded = tf.saved_model.load(folder)
        except Exception as exc:  # the saver's or the loader's refusal, in its own words
            raise Unsupported(f"tf.saved_model: {type(exc).__name__}: {exc}") from None
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return lambda env: loaded.serve(*(env[k] for k in names))

    def serving_module(self, fn, env, baked=()):
        """(module, concrete function, tensor names): fn as a tf.Module's tf.function with an input
        signature of env's tensors, named as they are (Python numbers are constants of the
        program, and so are the tensors named in `baked`, as a trained model's weights are), traced
        now, so that the program's own errors raise as under tf.function: what a SavedModel saves
        and LiteRT's converter converts."""
        tf = self.tf
        names, call = positional(fn, env, tf.is_tensor, baked, lambda value: tf.constant(value.numpy()))
        module = tf.Module()
        module.serve = tf.function(call, input_signature=[tf.TensorSpec(env[k].shape, env[k].dtype, name=k)
                                                          for k in names])
        return module, module.serve.get_concrete_function(), names
