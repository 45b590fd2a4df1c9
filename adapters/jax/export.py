"""JAX's export path: jax.export of the jitted program, serialized (StableHLO with its calling
convention, the bytes a user ships) and deserialized, then called, as a JAX program is saved for
serving or for another process (docs/exporting.md)."""
from adapters.base import Unsupported
from adapters.exporting import fits, per_signature, positional


class JaxExport:
    """The exported mode: Adapter.export."""

    def export(self, fn, weights=()):
        return per_signature(self.deserialized, fn, dynamic=True)

    def deserialized(self, fn, env, dynamic=False):
        """fn exported by jax.export for env's arrays (Python numbers are constants of the program),
        serialized and deserialized: run(env) -> fn's result. `dynamic`: (run, accepts), each size
        of 2 or more a symbolic dimension (jax.export.symbolic_shape), one per distinct size, so
        that sizes which agree here (a matmul's contraction) agree in every shape it serves; sizes
        0 and 1 stay static (1 broadcasts). An error of the program itself raises as it does under
        jax.jit; an op the exporter refuses (a custom call without a compatibility guarantee) is
        Unsupported, in its words."""
        jax = self.jax
        names, call = positional(fn, env, lambda v: isinstance(v, jax.Array))
        program = jax.jit(call)
        shapes = [jax.ShapeDtypeStruct(env[k].shape, env[k].dtype) for k in names]
        program.trace(*shapes)  # the program's own errors (a shape mismatch) raise as under jax.jit
        if dynamic:
            pattern = symbolic_sizes([s.shape for s in shapes])
            symbols = sorted({size for shape in pattern for size in shape if isinstance(size, str)})
            if not symbols:
                raise Unsupported("no size of 2 or more to keep symbolic")  # per_signature exports statically
            dims = dict(zip(symbols, jax.export.symbolic_shape(", ".join(symbols))))
            shapes = [jax.ShapeDtypeStruct(tuple(dims.get(d, d) for d in shape), s.dtype)
                      for shape, s in zip(pattern, shapes)]
        try:
            exported = jax.export.export(program)(*shapes)
            restored = jax.export.deserialize(exported.serialize())
        except Unsupported:
            raise
        except Exception as exc:  # the exporter's refusal, in its own words
            raise Unsupported(f"jax.export: {type(exc).__name__}: {exc}") from None
        run = lambda env: restored.call(*(env[k] for k in names))  # noqa: E731
        if not dynamic:
            return run
        bounds = dict.fromkeys(dims, (2, float("inf")))
        return run, lambda env: fits([tuple(env[k].shape) for k in names], pattern, bounds)


def symbolic_sizes(shapes) -> list:
    """Each shape with its sizes of 2 or more named by a symbol, the same symbol for the same size
    (adapters.exporting.fits reads them)."""
    return [tuple(f"d{size}" if size > 1 else size for size in shape) for shape in shapes]
