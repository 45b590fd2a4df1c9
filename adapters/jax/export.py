"""JAX's export path: jax.export of the jitted program, serialized (StableHLO with its calling
convention, the bytes a user ships) and deserialized, then called, as a JAX program is saved for
serving or for another process (docs/exporting.md)."""
from adapters.base import Unsupported
from adapters.exporting import per_signature, positional


class JaxExport:
    """The exported mode: Adapter.export."""

    def export(self, fn, weights=()):
        return per_signature(self.deserialized, fn)

    def deserialized(self, fn, env):
        """fn exported by jax.export for env's arrays (Python numbers are constants of the program),
        serialized and deserialized: run(env) -> fn's result. An error of the program itself
        raises as it does under jax.jit; an op the exporter refuses (a custom call without a
        compatibility guarantee) is Unsupported, in its words."""
        jax = self.jax
        names, call = positional(fn, env, lambda v: isinstance(v, jax.Array))
        program = jax.jit(call)
        shapes = [jax.ShapeDtypeStruct(env[k].shape, env[k].dtype) for k in names]
        program.trace(*shapes)  # the program's own errors (a shape mismatch) raise as under jax.jit
        try:
            exported = jax.export.export(program)(*shapes)
            restored = jax.export.deserialize(exported.serialize())
        except Unsupported:
            raise
        except Exception as exc:  # the exporter's refusal, in its own words
            raise Unsupported(f"jax.export: {type(exc).__name__}: {exc}") from None
        return lambda env: restored.call(*(env[k] for k in names))
