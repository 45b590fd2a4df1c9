"""The torch adapter's initializers: torch.nn.init's functions on an empty tensor like x, with a
torch.Generator seeded by the call's seed (their generator= argument); torch's defaults where a
spec leaves a parameter out."""
from adapters.base import FLOATS, Unsupported
from adapters.initializers import INITIALIZER_DTYPES, RECURRENT_LAYERS, Initializers
from adapters.optimizers import fixed
from adapters.reference.initializers import hidden_size
from vocabulary.initializers import RECURRENT
from vocabulary.params import RECURRENT_GATES

# torch.nn.init has no lecun initializers; its recurrent layers draw uniforms in any float dtype
TORCH_INITIALIZER_DTYPES = {**INITIALIZER_DTYPES, "init_lecun_uniform": (), "init_lecun_normal": (),
                            **dict.fromkeys(RECURRENT_LAYERS, FLOATS)}


class TorchInitializers(Initializers):
    """A mixin of TorchAdapter (self.torch is the torch module)."""

    def initialize(self, name, x, seed, params):
        torch, params = self.torch, dict(params)
        fn = getattr(torch.nn.init, name + "_", None)
        if fn is None:
            raise Unsupported(f"torch.nn.init has no {name}_")
        fixed(params, {"truncated": False}, f"torch.nn.init.{name}_")  # torch's normals are not truncated
        out = torch.empty_like(x)
        if name in ("zeros", "ones"):
            return fn(out, **params)
        return fn(out, **params, generator=torch.Generator(device=x.device).manual_seed(seed))

    def layer_parameters(self, layer, w, seed):
        """torch.manual_seed, then the module (torch's modules draw from the global generator)."""
        torch = self.torch
        torch.manual_seed(seed)
        out, inputs, *kernel = w.shape
        if layer in RECURRENT_GATES:
            module = getattr(torch.nn, layer.upper())(inputs, hidden_size(w.shape, layer), dtype=w.dtype)
            return tuple(getattr(module, name).detach() for name in RECURRENT)
        if layer == "embedding":
            return torch.nn.Embedding(out, inputs, dtype=w.dtype).weight.detach()
        module = torch.nn.Linear(inputs, out, dtype=w.dtype) if layer == "linear" else torch.nn.Conv2d(
            inputs, out, tuple(kernel), dtype=w.dtype)
        return module.weight.detach(), module.bias.detach()
