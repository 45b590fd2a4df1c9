"""The engine adapter's initializers: engine.init's functions, called as torch.nn.init's users call
theirs (a tensor filled in place, a seeded generator)."""
import numpy as np

from adapters.initializers import Initializers
from adapters.reference.initializers import hidden_size
from vocabulary.params import RECURRENT_GATES


class EngineInitializers(Initializers):
    """A mixin of EngineAdapter (self.engine)."""

    def initialize(self, name, x, seed, params):
        from engine import init

        out = self.engine.Tensor(np.empty_like(x.data))
        if name in ("zeros", "ones"):
            return getattr(init, name + "_")(out, **params)
        return getattr(init, name + "_")(out, **params, generator=np.random.default_rng(seed))

    def layer_parameters(self, layer, w, seed):
        from engine import init

        out, inputs, *kernel = w.data.shape
        generator, dtype = np.random.default_rng(seed), w.data.dtype
        if layer in RECURRENT_GATES:
            return getattr(init, layer)(inputs, hidden_size(w.data.shape, layer), dtype, generator)
        if layer == "embedding":
            return init.embedding(out, inputs, dtype, generator)
        return init.linear(inputs, out, dtype, generator) if layer == "linear" else init.conv2d(
            inputs, out, tuple(kernel), dtype, generator)
